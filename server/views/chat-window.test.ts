import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { filterRows, groupRows, type ListFilters, NO_FILTERS, sortRows } from "@/components/chats/list-view";
import { closedChat, problemFolder } from "@/e2e/chats-setup";
import { listAllChats } from "@/lib/chats";
import { CHAT_SORT_KEYS, type ChatSort } from "@/lib/chats/views";
import { closeAllIndexes, refreshIndex } from "@/lib/search-index";
import { settleFolder } from "@/test-support/chats/testing";
import { liveContext } from "../source/context";
import { toRow } from "./chat-list";
import { FACTS_KEPT_MS, factsHeld, factsReads, readChatWindow, WINDOW_ROWS, ZChatWindow } from "./chat-window";

/**
 * The chat list read a window at a time from the index selects, orders and
 * groups the same chats as the page does with the whole folder's rows in
 * hand (`components/chats/list-view.ts`), for every sort, filter and grouping.
 */

let root: string;
let logs: string;
let state: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "oda-chat-window-"));
  logs = join(root, "logs");
  state = join(root, "state");
  await problemFolder(logs);
  // More chats over three more working folders, of one to four turns.
  for (let i = 0; i < 7; i++)
    await closedChat(logs, `c-more-${i}`, `/home/ben/p${i % 3}`, 1 + (i % 4), { start: 60 + i });
  // Working folders whose groups' folder names sort in another order than the folders themselves.
  await closedChat(logs, "c-tilde", "/home/ben/~tilde", 1, { start: 70 });
  await closedChat(logs, "c-apple", "/home/ben/apple", 1, { start: 71 });
  settleFolder(logs);
  await refreshIndex(state, logs, { compress: true });
}, 60_000);
afterAll(() => {
  closeAllIndexes();
  rmSync(root, { recursive: true, force: true });
});

const ctx = () => liveContext({ home: null, logs, state, demo: false });

/** Every place of the list through windows of `size` rows, and the first window's counts and groups. */
async function readAll(sort: ChatSort, grouped: boolean, filters: ListFilters, size = 3) {
  const ask = { view: "t", sort: sort.key, dir: sort.dir, grouped, filters };
  const first = await readChatWindow(ctx(), { ...ask, from: 0, to: size });
  const ids = first.rows.map((r) => r.id);
  for (let from = size; from < first.shown; from += size)
    ids.push(...(await readChatWindow(ctx(), { ...ask, from, to: from + size })).rows.map((r) => r.id));
  return { first, ids };
}

const FILTERS: ListFilters[] = [
  NO_FILTERS,
  { ...NO_FILTERS, problemsOnly: true },
  { ...NO_FILTERS, lock: "stale" },
  { ...NO_FILTERS, format: "1" },
  { ...NO_FILTERS, find: "MORE" },
  { ...NO_FILTERS, group: "" },
  { ...NO_FILTERS, started: "2026-11-29", tz: "UTC" },
  { ...NO_FILTERS, started: "2026-11-29", tz: "Nowhere/Atlantis" },
];

describe("the chat list read a window at a time", () => {
  it("keeps, orders and groups the chats as the page does with every row in hand", async () => {
    const held = (await listAllChats(logs, { compress: true })).chats.map(toRow);
    const group = held.find((r) => r.cwd === "/home/ben/p1")?.group ?? "";
    expect(group).not.toBe("");
    let compared = 0;
    for (const filters of [...FILTERS, { ...NO_FILTERS, group }])
      for (const key of CHAT_SORT_KEYS)
        for (const dir of ["asc", "desc"] as const)
          for (const grouped of [false, true]) {
            const sort = { key, dir };
            const items = groupRows(sortRows(filterRows(held, filters), sort), grouped);
            const { first, ids } = await readAll(sort, grouped, filters);
            const what = JSON.stringify({ filters, sort, grouped });
            expect(ids, what).toEqual(items.flatMap((i) => (i.type === "chat" ? [i.row.id] : [])));
            expect(first.groups, what).toEqual(
              grouped
                ? items.flatMap((i) => (i.type === "group" ? [{ group: i.group, label: i.label, count: i.count }] : []))
                : null,
            );
            expect(first.total).toBe(held.length);
            expect(first.withProblems).toBe(held.filter((r) => r.problems.length).length);
            compared += ids.length;
          }
    // The filters kept some chats in most of the cases above: the comparison is not of empty lists.
    expect(compared).toBeGreaterThan(500);
  });

  it("serves each row as the folder listing makes it, its problems and its judged lock included", async () => {
    const held = new Map((await listAllChats(logs, { compress: true })).chats.map((c) => [c.id, toRow(c)]));
    const { first } = await readAll({ key: "title", dir: "asc" }, false, NO_FILTERS, WINDOW_ROWS);
    expect(first.rows).toHaveLength(held.size);
    for (const row of first.rows) {
      const folder = held.get(row.id);
      expect({ ...row, cached: folder?.cached }, row.id).toEqual(folder);
    }
  });

  it("reads every chat's facts once for filtered windows asked for at once, each answered as if alone", async () => {
    const sort = { key: "messages", dir: "desc" } as const;
    const filters = { ...NO_FILTERS, find: "c-" };
    const ask = { view: "at-once", sort: sort.key, dir: sort.dir, grouped: true, filters };
    const before = factsReads();
    const windows = await Promise.all(
      [0, 3, 6, 9].map((from) => readChatWindow(ctx(), { ...ask, from, to: from + 3 })),
    );
    expect(factsReads() - before).toBe(1);
    const { first, ids } = await readAll(sort, true, filters);
    expect(windows.flatMap((w) => w.rows.map((r) => r.id))).toEqual(ids.slice(0, 12));
    for (const w of windows) expect({ ...w, rows: [], from: 0 }).toEqual({ ...first, rows: [], from: 0 });
    // A window whose request has gone reads nothing.
    const gone = new AbortController();
    gone.abort();
    const reads = factsReads();
    const read = readChatWindow(ctx(), { ...ask, view: "gone", from: 0, to: 3 }, gone.signal);
    await expect(read).rejects.toMatchObject({ name: "AbortError" });
    expect(factsReads()).toBe(reads);
  });

  it("lets every chat's facts go a while after the last filtered window, and holds none for the unfiltered list", async () => {
    // Timeouts only: the facts are read over turns of the event loop (`setImmediate`).
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const ask = { view: "kept", sort: "title", dir: "asc", grouped: false, from: 0, to: 5 } as const;
      await readChatWindow(ctx(), { ...ask, filters: { ...NO_FILTERS, find: "held" } });
      expect(factsHeld(state)).toBe(true);
      vi.advanceTimersByTime(FACTS_KEPT_MS - 1);
      // Another filtered window puts it off.
      await readChatWindow(ctx(), { ...ask, filters: { ...NO_FILTERS, find: "other" } });
      vi.advanceTimersByTime(FACTS_KEPT_MS - 1);
      expect(factsHeld(state)).toBe(true);
      vi.advanceTimersByTime(1);
      expect(factsHeld(state)).toBe(false);
      await readChatWindow(ctx(), { ...ask, filters: NO_FILTERS });
      expect(factsHeld(state)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it("says the index cannot serve the list when it has not been built", async () => {
    const empty = mkdtempSync(join(tmpdir(), "oda-chat-window-none-"));
    try {
      const window = await readChatWindow(liveContext({ home: null, logs, state: empty, demo: false }), {
        view: "t",
        sort: "title",
        dir: "asc",
        grouped: false,
        filters: NO_FILTERS,
        from: 0,
        to: 10,
      });
      expect(window.built).toBe(false);
    } finally {
      closeAllIndexes();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("refuses a window of more rows than one read holds, or one that ends before it starts", () => {
    const ask = { view: "t", sort: "title", dir: "asc", grouped: false, filters: NO_FILTERS };
    expect(ZChatWindow.safeParse({ ...ask, from: 0, to: WINDOW_ROWS }).success).toBe(true);
    expect(ZChatWindow.safeParse({ ...ask, from: 0, to: WINDOW_ROWS + 1 }).success).toBe(false);
    expect(ZChatWindow.safeParse({ ...ask, from: 5, to: 4 }).success).toBe(false);
  });
});
