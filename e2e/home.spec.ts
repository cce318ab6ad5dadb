import { join } from "node:path";
import { encodeName, groupName } from "../lib/chats";
import { makeDemoInto } from "../scripts/demo";
import { leaveDeadLock } from "../test-support/chats/testing";
import { closedChat } from "./chats-setup";
import { expect, expectAccessible, seed, seedOnce, test } from "./fixtures";

test.describe("the start page over demo data", () => {
  test.use({
    odaDemo: true,
    odaSetup: seedOnce(async ({ home, logs }) => {
      await makeDemoInto({ home, logs, seed: 3, chats: 12 });
    }),
  });

  test("shows the Demo data banner, what each root holds and what needs a look", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("note", { name: "Demo data" })).toContainText("Demo data");
    const memory = page.getByRole("region", { name: "Memory" });
    await expect(memory).toContainText("global set and 3 workspaces");
    await expect(memory.getByRole("link", { name: "6 problem files to look at" })).toHaveAttribute(
      "href",
      "/memory/problems",
    );
    const chats = page.getByRole("region", { name: "Chats" });
    // 12 generated chats and 8 special ones; the chat stored in two places is refused, not counted.
    await expect(chats).toContainText("19 chats");
    await expect(chats.getByRole("link", { name: "1 folder problem to look at" })).toBeVisible();
    await expectAccessible(page);
  });

  test("the header navigation is keyboard-reachable, with a skip link first", async ({ page }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("main")).toContainText("Oda Admin");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
  });
});

test.describe("the start page's count of chats with problems", () => {
  test.use({
    odaSetup: seed(async ({ logs }) => {
      for (const id of ["c-1", "c-2"]) await closedChat(logs, id, "/home/ana/reports", 1);
    }),
  });

  test("comes from the search index once it is built, and follows a chat that changes", async ({ page, oda }) => {
    await page.goto("/");
    const chats = page.getByRole("region", { name: "Chats" });
    await expect(chats).toContainText("No problems found.");
    // The first count lists the folder and starts building the index: wait for it to be built.
    await expect
      .poll(async () => {
        const status = await (await page.request.get("/api/read/search.status")).json();
        return status.data?.freshness?.fresh === true;
      })
      .toBe(true);
    // A copy of Oda died holding c-2: its lock is stale, a problem the index does not know of yet.
    leaveDeadLock(join(oda.logs, groupName("/home/ana/reports"), encodeName("c-2")));
    await page.goto("/");
    await expect(chats.getByRole("link", { name: "1 chat with problems to look at" })).toBeVisible();
  });
});
