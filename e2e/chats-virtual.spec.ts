import { closeAllIndexes, refreshIndex } from "../lib/search-index";
import { settleFolder } from "../test-support/chats/testing";
import { CHATS, manyChats, manyChatsChecks } from "./chat-list-checks";
import { expect, seed, test } from "./fixtures";

/** The chat list over 3,000 chats renders only the rows in view (TanStack Virtual). */

test.describe("listed from the folder", () => {
  test.use({ odaSetup: seed(({ home, logs }) => manyChats(home, logs)) });

  test("3,000 chats: few row elements, the last chat reached by scrolling, sorting over the whole set", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await manyChatsChecks(page);
  });
});

test.describe("read a window at a time from a built index", () => {
  test.use({
    odaSetup: seed(async ({ home, logs, state }) => {
      await manyChats(home, logs);
      settleFolder(logs);
      await refreshIndex(state, logs, { compress: false });
      closeAllIndexes();
    }),
  });

  test("3,000 chats: the same list, from a few windows of rows, each filter and sort answered by the server", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const windows: { from: number; find: string; sort: string }[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (!url.pathname.endsWith("/api/read/chats.window")) return;
      const input = JSON.parse(url.searchParams.get("input") ?? "{}");
      windows.push({ from: input.from, find: input.filters.find, sort: `${input.sort} ${input.dir}` });
    });
    await manyChatsChecks(page);
    await expect(page.getByRole("status").filter({ hasText: "search index" })).toHaveText(
      `Chats are listed from the search index. The search index is up to date (${CHATS.toLocaleString("en")} chats).`,
    );
    // The table read the windows it drew (the top, the bottom, each order and the find), never the whole list.
    expect(new Set(windows.map((w) => w.from)).size).toBeLessThan(CHATS / 100);
    expect(windows.some((w) => w.sort === "title asc")).toBe(true);
    expect(windows.some((w) => w.find === "c-01500")).toBe(true);
  });
});
