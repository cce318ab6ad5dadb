import { listAllChats } from "../lib/chats";
import { wireDecoder } from "../lib/chats/list-wire";
import { closeAllIndexes, refreshIndex } from "../lib/search-index";
import { leaveDeadLock, openChat, settleFolder } from "../test-support/chats/testing";
import { sortAndFilterNine } from "./chat-list-checks";
import { at, closedChat, problemFolder } from "./chats-setup";
import { expect, expectAccessible, seed, test } from "./fixtures";

/** Three chats, one left locked by a dead process, and the search index built over them with the lib's refresh. */
test.use({
  odaSetup: seed(async ({ logs, state }) => {
    await closedChat(logs, "c-okapi", "/home/ana/zoo", 2, { start: 10 });
    await closedChat(logs, "c-report", "/home/ana/reports", 1, { start: 20 });
    const stale = await closedChat(logs, "c-stale", "/srv/a", 1, { start: 30 });
    leaveDeadLock(stale.dir);
    settleFolder(logs);
    await refreshIndex(state, logs, { compress: true });
    closeAllIndexes();
  }),
});

const FROM_INDEX = "Chats are listed from the search index. The search index is up to date (3 chats).";

test.describe("the chat list and the search index", () => {
  test("a fresh index serves the list, problems included, and says so", async ({ page }) => {
    await page.goto("/chats");
    await expect(page.getByRole("status").filter({ hasText: "search index" })).toHaveText(FROM_INDEX);
    await expect(page.getByText("Showing 3 of 3 chats; 1 with problems.")).toBeVisible();
    const table = page.getByRole("table", { name: "Chats" });
    const row = (id: string) => table.getByRole("row").filter({ hasText: id });
    await expect(row("c-okapi").getByRole("link", { name: "Question 1 of c-okapi" })).toBeVisible();
    await expect(row("c-okapi").getByRole("cell").nth(3)).toHaveText("4");
    await expect(row("c-okapi").getByText("cached", { exact: true })).toBeVisible();
    await expect(row("c-stale")).toContainText(/The session\.lock is stale \(held by process \d+ on /);
    await expect(row("c-stale").getByText("stale lock", { exact: true })).toBeVisible();
    await expectAccessible(page);
  });

  test("a sort chosen in the table is asked of the server, whose rows come in that order; Back keeps it", async ({
    page,
  }) => {
    await page.goto("/chats");
    await expect(page.getByRole("status").filter({ hasText: "search index" })).toHaveText(FROM_INDEX);
    const table = page.getByRole("table", { name: "Chats" });
    await page.getByLabel("Group by working folder").uncheck();
    const titles = table.getByRole("row").getByRole("link");
    const byTitle = ["Question 1 of c-okapi", "Question 1 of c-report", "Question 1 of c-stale"];
    // Over a built index the table reads its rows a window at a time, each window in the order it shows.
    const asked = (dir: string) =>
      page.waitForResponse((r) => {
        const url = new URL(r.url());
        if (!url.pathname.endsWith("/api/read/chats.window") || !r.ok()) return false;
        const input = JSON.parse(url.searchParams.get("input") ?? "{}");
        return input.sort === "title" && input.dir === dir;
      });
    const ascending = asked("asc");
    await table.getByRole("button", { name: "Title" }).click();
    await ascending;
    await expect(titles).toHaveText(byTitle);
    const descending = asked("desc");
    await table.getByRole("button", { name: "Title" }).click();
    await descending;
    await expect(titles).toHaveText([...byTitle].reverse());
    await titles.first().click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Question 1 of c-stale");
    await page.goBack();
    await expect(table.getByRole("columnheader", { name: "Title" })).toHaveAttribute("aria-sort", "descending");
    await expect(titles).toHaveText([...byTitle].reverse());
  });

  test("after a turn is appended the list says the index is behind and shows the new count from the folder", async ({
    page,
    oda,
  }) => {
    await page.goto("/chats");
    const source = page.getByRole("status").filter({ hasText: "search index" });
    await expect(source).toHaveText(FROM_INDEX);
    const messages = page.getByRole("table", { name: "Chats" }).getByRole("row").filter({ hasText: "c-okapi" });
    await expect(messages.getByRole("cell").nth(3)).toHaveText("4");

    const w = await openChat(oda.logs, "c-okapi");
    await w.appendTurn({ user: "Where did the okapi go?", assistant: "To the forest.", ts: at(40) });
    await w.close();

    await page.getByRole("button", { name: "Refresh", exact: true }).click();
    await expect(source).toHaveText(
      /^The search index is behind the log folder: 1 chat changed since it was refreshed at \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M \S+\. Chats are listed from the log folder directly\.$/,
    );
    await expect(messages.getByRole("cell").nth(3)).toHaveText("6");
    await expect(page.getByText("Showing 3 of 3 chats; 1 with problems.")).toBeVisible();

    // The list started a refresh in the background; once the index has caught up, it serves the list again.
    await page.goto("/search");
    await expect(page.getByText("The search index is up to date (3 chats).")).toBeVisible({ timeout: 20_000 });
    await page.goto("/chats");
    await expect(source).toHaveText(FROM_INDEX);
    await expect(messages.getByRole("cell").nth(3)).toHaveText("6");
  });

  test("searching from the chat list's box lands on the search page with results, in a narrow window", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/chats");
    const box = page.getByRole("search", { name: "Search every chat" });
    await box.getByLabel("Search in all chats").fill("okapi");
    await box.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/search\?q=okapi$/);
    const results = page.getByRole("list", { name: "Chats that match" });
    await expect(results.getByRole("heading", { name: "Question 1 of c-okapi" })).toBeVisible();
    await expect(results.getByText("4 matches", { exact: true })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("a fresh index over a folder with every problem kind", () => {
  test.use({
    odaSetup: seed(async ({ logs, state }) => {
      await problemFolder(logs);
      // Written long before the refresh: no chat is racy, so the index built from it is up to date.
      settleFolder(logs);
      await refreshIndex(state, logs, { compress: true });
      closeAllIndexes();
    }),
  });

  test("sorts and filters as the folder listing does, each answered from the index by the server", async ({ page }) => {
    test.slow(); // a 404 page and axe on a shared, loaded machine
    const filtered = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return (
        url.pathname.endsWith("/api/read/chats.window") &&
        url.searchParams.get("input")?.includes('"lock":"stale"') === true
      );
    });
    await sortAndFilterNine(page);
    expect((await filtered).ok()).toBe(true);
  });

  test("serves the same rows and problems as the folder listing", async ({ page, oda }) => {
    const res = await page.request.get("/api/chats?batch=4");
    // Rows go as arrays with a table of shared strings; the page's decoder reads them back.
    const decode = wireDecoder();
    const batches = (await res.text())
      .trim()
      .split("\n")
      .map((l) => decode(JSON.parse(l)));
    // the index's rows go out at once, marked as being checked: the first batch as asked, the rest in batches
    // of 2,000 (laterBatchSize); a last, empty batch gives the check's verdict
    expect(batches.map((b) => [b.rows.length, b.done, b.total])).toEqual([
      [4, 4, 9],
      [5, 9, 9],
      [0, 9, 9],
    ]);
    expect(batches[0]?.index).toMatchObject({ fresh: false, checking: true });
    expect(batches[1]?.index).toBeUndefined();
    expect(batches[2]?.index).toEqual({ fresh: true, sentence: "The search index is up to date (9 chats)." });
    expect(batches[0]?.problems.map((p) => p.kind)).toEqual(["duplicate"]);
    const served = batches
      .flatMap((b) => b.rows)
      .map((r) => ({
        id: r.id,
        title: r.title,
        messages: r.messages,
        cached: r.cached,
        problems: r.problems.map((p) => p.message),
      }))
      .sort((a, b) => a.id.localeCompare(b.id));
    const listed = (await listAllChats(oda.logs)).chats
      .map((c) => ({
        id: c.id,
        title: c.title,
        messages: c.messages,
        cached: c.cached,
        problems: c.problems.map((p) => p.message),
      }))
      .sort((a, b) => a.id.localeCompare(b.id));
    expect(served).toEqual(listed);

    await page.goto("/chats");
    await expect(page.getByRole("status").filter({ hasText: "search index" })).toHaveText(
      "Chats are listed from the search index. The search index is up to date (9 chats).",
    );
    await expect(page.getByText("Showing 9 of 9 chats; 5 with problems.")).toBeVisible();
  });
});
