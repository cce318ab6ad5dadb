import { closeAllIndexes, refreshIndex } from "../lib/search-index";
import { openChat, settleFolder } from "../test-support/chats/testing";
import { at, closedChat } from "./chats-setup";
import { expect, seed, test } from "./fixtures";

/**
 * The chat list over a built index shows the index's rows at once and says
 * they are being checked; the notice goes once the check is done, and rows
 * that changed in the folder are updated in place.
 */
test.use({
  odaSetup: seed(async ({ logs, state }) => {
    await closedChat(logs, "c-okapi", "/home/ana/zoo", 2, { start: 10 });
    await closedChat(logs, "c-report", "/home/ana/reports", 1, { start: 20 });
    settleFolder(logs);
    await refreshIndex(state, logs, { compress: true });
    closeAllIndexes();
  }),
});

const CHECKING = "Showing the chats as the search index has them while they are checked against the log folder.";
const FROM_INDEX = "Chats are listed from the search index. The search index is up to date (2 chats).";

test.describe("the chat list checks the index's rows after showing them", () => {
  test("while the check has not answered, the rows are shown with the notice; once it has, the notice goes", async ({
    page,
  }) => {
    // Hold back everything after the index's rows: the page shows what it has and says it is being checked.
    await page.route("**/api/chats*", async (route) => {
      const response = await route.fetch();
      const lines = (await response.text()).split("\n").filter(Boolean);
      // Everything but the verdict: a line whose index says anything but "checking".
      const first = lines.filter((l) => {
        const batch = JSON.parse(l);
        return !batch.update && (batch.index === undefined || batch.index.checking === true);
      });
      await route.fulfill({ response, body: `${first.join("\n")}\n` });
    });
    await page.goto("/chats");
    const source = page.getByRole("status").filter({ hasText: "search index" });
    // The rows held back above reach the page only once the server's whole answer, its folder check included,
    // has come: on a loaded machine that is the first worker's start and more. Wait for it, not for 10 s.
    await expect(source).toHaveText(CHECKING, { timeout: 30_000 });
    const table = page.getByRole("table", { name: "Chats" });
    await expect(table.getByRole("row").filter({ hasText: "c-okapi" })).toBeVisible();
    await expect(table.getByRole("row").filter({ hasText: "c-report" })).toBeVisible();

    await page.unroute("**/api/chats*");
    await page.getByRole("button", { name: "Refresh", exact: true }).click();
    await expect(source).toHaveText(FROM_INDEX);
    await expect(page.getByText(CHECKING)).toHaveCount(0);
  });

  test("a chat that grew since the index was built is shown from the index, then updated from its log", async ({
    page,
    oda,
  }) => {
    const w = await openChat(oda.logs, "c-okapi");
    await w.appendTurn({ user: "Where did the okapi go?", assistant: "To the forest.", ts: at(40) });
    await w.close();
    await page.goto("/chats");
    const source = page.getByRole("status").filter({ hasText: "search index" });
    const okapi = page.getByRole("table", { name: "Chats" }).getByRole("row").filter({ hasText: "c-okapi" });
    await expect(okapi.getByRole("cell").nth(3)).toHaveText("6");
    await expect(source).toHaveText(
      /^The search index is behind the log folder: 1 chat changed since it was refreshed at \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M \S+\. Chats are listed from the log folder directly\.$/,
    );
    await expect(page.getByText("Showing 2 of 2 chats; 0 with problems.")).toBeVisible();
  });
});
