import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { createMemory, writeSettings } from "../lib/memory";
import { closedChat } from "./chats-setup";
import { expect, expectAccessible, seed, test } from "./fixtures";

/** Issue 11, items 2 and 4: a change of the logs' form asks first, and a set that does not exist says so. */

const compressOf = async (home: string) =>
  (JSON.parse(await readFile(join(home, "settings.json"), "utf8")) as { sessions?: { compress?: boolean } }).sessions
    ?.compress;

test.describe("the form of the chat logs", () => {
  test.use({
    odaSetup: seed(async ({ home, logs }) => {
      await writeSettings(home, { compress: true });
      for (const id of ["c-1", "c-2", "c-3"]) await closedChat(logs, id, "/home/ana/reports", 1);
    }),
  });

  test("a change asks first, naming how many chats would be refused; Home then counts the chats' problems", async ({
    page,
    oda,
  }) => {
    test.slow(); // many pages and two saves on a shared, loaded machine
    await page.goto("/");
    const chats = page.getByRole("region", { name: "Chats" });
    await expect(chats).toContainText("3 chats");
    await expect(chats).toContainText("No problems found.");

    await page.goto("/memory/settings");
    const box = page.getByRole("checkbox", { name: /Compressed chat logs/ });
    await box.uncheck();
    await page.getByRole("button", { name: "Save settings" }).click();
    const ask = page.getByRole("dialog", { name: "Keep plain chat logs?" });
    // The count reads the log folder on the server: give it the time a loaded machine needs.
    await expect(ask).toContainText("Oda would then refuse 3 chats", { timeout: 30_000 });
    await expectAccessible(page);
    await ask.getByRole("button", { name: "Cancel" }).click();
    await expect(ask).toBeHidden();
    expect(await compressOf(oda.home)).toBe(true);

    await page.getByRole("button", { name: "Save settings" }).click();
    await ask.getByRole("button", { name: "Save and refuse 3 chats" }).click();
    await expect(page.getByRole("region", { name: "Notifications" })).toContainText("Settings saved.");
    expect(await compressOf(oda.home)).toBe(false);

    await page.goto("/");
    await expect(chats.getByRole("link", { name: "3 chats with problems to look at" })).toBeVisible();

    // Back to compressed logs: the question comes again, and this time no chat would be refused.
    await page.goto("/memory/settings");
    await box.check();
    await page.getByRole("button", { name: "Save settings" }).click();
    const back = page.getByRole("dialog", { name: "Keep compressed chat logs?" });
    await expect(back).toContainText("No chat would be refused", { timeout: 30_000 });
    await back.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => compressOf(oda.home)).toBe(true);
  });
});

test.describe("a workspace with no memory set", () => {
  test.use({
    odaSetup: seed(async ({ home }) => {
      await createMemory(home, "reports", { title: "W", text: "w" });
    }),
  });

  test("says so, creates nothing on its own, and creates the set only on request", async ({ page, oda }) => {
    const folder = join(oda.home, "memory", "workspaces", "nope");
    const exists = () =>
      stat(folder).then(
        () => true,
        () => false,
      );
    await page.goto("/memory/workspaces/nope/new");
    await expect(page.getByRole("alert").filter({ hasText: "No memory set exists" })).toContainText(
      "No memory set exists for workspace nope.",
    );
    await expect(page.getByLabel("Title", { exact: true })).toHaveCount(0);

    await page.goto("/memory/workspaces/nope");
    await expect(page.getByRole("alert").filter({ hasText: "No memory set exists" })).toContainText(
      "No memory set exists for workspace nope.",
    );
    await expect(page.getByRole("link", { name: "New memory" })).toHaveCount(0);
    await expectAccessible(page);
    expect(await exists()).toBe(false);

    await page.getByRole("button", { name: "Create a memory set for workspace nope" }).click();
    await expect(page.getByRole("link", { name: "New memory" })).toHaveAttribute("href", "/memory/workspaces/nope/new");
    await expect(page.getByText("No memory set exists")).toHaveCount(0);
    expect(await exists()).toBe(true);

    // A set that exists is a set as before.
    await page.goto("/memory/workspaces/reports");
    await expect(page.getByText("No memory set exists")).toHaveCount(0);
  });
});
