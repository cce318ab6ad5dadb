import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatSort } from "@/lib/chats/views";
import {
  checkIndexFreshness,
  closeAllIndexes,
  type Freshness,
  indexStatus,
  readChatsFromIndex,
  refreshIndex,
} from "@/lib/search-index";
import { createChat, openChat, settleFolder } from "@/test-support/chats/testing";
import { liveContext } from "../source/context";
import { inWorker } from "../workers/log-worker";
import { CHECKING_INDEX, type ChatListBatch, streamChatList } from "./chat-list";

/**
 * The chat list's stream with a built index: the index's rows go out first,
 * marked as being checked, then the verdict and the rows that changed.
 */

let root: string;
let logs: string;
let state: string;

async function chat(id: string, turns: number): Promise<void> {
  const w = createChat(logs, { id, cwd: "/home/ana/zoo", created: "2026-11-29T18:24:08.123Z" });
  for (let i = 0; i < turns; i++) await w.appendTurn({ user: `question ${i} of ${id}`, assistant: `answer ${i}` });
  await w.close();
  // Written long before the refresh that follows: not racy, so the index built from it is up to date.
  settleFolder(w.dir);
}

async function collect(order?: ChatSort): Promise<ChatListBatch[]> {
  const batches: ChatListBatch[] = [];
  for await (const batch of streamChatList(liveContext({ home: null, logs, state, demo: false }), { batch: 2, order }))
    batches.push(batch);
  return batches;
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "oda-chat-list-"));
  logs = join(root, "logs");
  state = join(root, "state");
  process.env.ODA_LOG_DIR = logs;
  process.env.ODA_ADMIN_STATE = state;
  for (const id of ["c-a", "c-b", "c-c"]) await chat(id, 2);
  await refreshIndex(state, logs, { compress: true });
});
afterEach(async () => {
  // A refresh the list started in the background ends before the folder goes.
  while ((await indexStatus(state, logs)).job.running) await new Promise((r) => setTimeout(r, 50));
  closeAllIndexes();
  delete process.env.ODA_LOG_DIR;
  delete process.env.ODA_ADMIN_STATE;
  rmSync(root, { recursive: true, force: true });
});

describe("the chat list over a built index", () => {
  it("sends the index's rows first, marked as being checked, then says they are current", async () => {
    const batches = await collect();
    const first = batches[0] as ChatListBatch;
    expect(first.index).toEqual({ fresh: false, checking: true, sentence: CHECKING_INDEX });
    const fromIndex = batches.filter((b) => !b.update).flatMap((b) => b.rows.map((r) => r.id));
    expect(fromIndex.sort()).toEqual(["c-a", "c-b", "c-c"]);
    const last = batches[batches.length - 1] as ChatListBatch;
    expect(last.index).toEqual({ fresh: true, sentence: "The search index is up to date (3 chats)." });
    expect(last.update).toEqual({ removed: [], replaceProblems: false });
    expect(batches.filter((b) => b.update).flatMap((b) => b.rows)).toEqual([]);
  });

  it("sends the index's rows in the order asked for, across batches, and says so in the first", async () => {
    const rowsIn = (batches: ChatListBatch[]) =>
      batches.filter((b) => !b.update).flatMap((b) => b.rows.map((r) => r.id));
    const byTitle = await collect({ key: "title", dir: "asc" });
    expect(byTitle[0]?.order).toEqual({ key: "title", dir: "asc" });
    expect(rowsIn(byTitle)).toEqual(["c-a", "c-b", "c-c"]);
    const reversed = await collect({ key: "title", dir: "desc" });
    expect(rowsIn(reversed)).toEqual(["c-c", "c-b", "c-a"]);
    // No order asked: the newest activity first, and said so.
    const plain = await collect();
    expect(plain[0]?.order).toEqual({ key: "lastActivity", dir: "desc" });
    expect(rowsIn(plain)).toEqual(["c-c", "c-b", "c-a"]);
  });

  it("lays out every working folder's group with its count in the first batch, before their rows", async () => {
    const other = createChat(logs, { id: "c-other", cwd: "/srv/other", created: "2026-11-20T08:00:00.000Z" });
    await other.appendTurn({ user: "elsewhere", assistant: "yes" });
    await other.close();
    settleFolder(other.dir);
    await refreshIndex(state, logs, { compress: true });
    const batches = await collect();
    expect(batches[0]?.rows).toHaveLength(2);
    expect(batches[0]?.groups?.sort((a, b) => a.group.localeCompare(b.group))).toEqual([
      { group: "--%2Fhome%2Fana%2Fzoo--", cwd: "/home/ana/zoo", count: 3 },
      { group: "--%2Fsrv%2Fother--", cwd: "/srv/other", count: 1 },
    ]);
    // Each group's count is what its rows come to.
    const rows = batches.filter((b) => !b.update).flatMap((b) => b.rows);
    for (const g of batches[0]?.groups ?? []) expect(rows.filter((r) => r.group === g.group)).toHaveLength(g.count);
    expect(batches.slice(1).some((b) => b.groups)).toBe(false);
  });

  it("then updates the rows that changed, adds new chats, drops gone ones, and says the index is behind", async () => {
    const w = await openChat(logs, "c-a");
    await w.appendTurn({ user: "one more", assistant: "reply" });
    await w.close();
    await chat("c-new", 1);
    rmSync(join(logs, "--%2Fhome%2Fana%2Fzoo--", "c-c"), { recursive: true });
    const batches = await collect();
    const shown = batches.filter((b) => !b.update).flatMap((b) => b.rows);
    expect(shown.find((r) => r.id === "c-a")?.messages).toBe(4);
    expect(batches[0]?.index?.checking).toBe(true);
    const updates = batches.filter((b) => b.update);
    const changed = updates.flatMap((b) => b.rows);
    expect(changed.map((r) => [r.id, r.messages]).sort()).toEqual([
      ["c-a", 6],
      ["c-new", 2],
    ]);
    const last = batches[batches.length - 1] as ChatListBatch;
    expect(last.update?.removed).toEqual(["c-c"]);
    expect(last.index?.fresh).toBe(false);
    expect(last.index?.sentence).toMatch(
      /^The search index is behind the log folder: 1 chat changed, 1 chat new, 1 chat removed since it was refreshed at /,
    );
  });
});

describe("the chat list over a built index, paged", () => {
  const paged = async () => {
    const batches: ChatListBatch[] = [];
    for await (const batch of streamChatList(liveContext({ home: null, logs, state, demo: false }), {
      batch: 2,
      paged: true,
    }))
      batches.push(batch);
    return batches;
  };

  it("sends no rows, names the listing the page reads windows for, then says the index is current", async () => {
    const batches = await paged();
    expect(batches.map((b) => [b.rows.length, b.done, b.total])).toEqual([
      [0, 0, 3],
      [0, 3, 3],
    ]);
    expect(batches[0]?.paged?.view).toMatch(/^\d+\.\d+$/);
    expect(batches[0]?.index).toEqual({ fresh: false, checking: true, sentence: CHECKING_INDEX });
    expect(batches[1]?.index).toEqual({ fresh: true, sentence: "The search index is up to date (3 chats)." });
    // Each listing has a name of its own: windows read for one are not taken for another's.
    expect((await paged())[0]?.paged?.view).not.toBe(batches[0]?.paged?.view);
  });

  it("when the folder changed, says so, then sends the folder's rows in full and the verdict", async () => {
    const w = await openChat(logs, "c-a");
    await w.appendTurn({ user: "one more", assistant: "reply" });
    await w.close();
    await chat("c-new", 1);
    const batches = await paged();
    expect(batches[0]?.paged).toBeDefined();
    expect(batches[1]).toMatchObject({ rows: [], paged: null });
    const rows = batches.slice(2).flatMap((b) => b.rows);
    expect(rows.map((r) => [r.id, r.messages]).sort()).toEqual([
      ["c-a", 6],
      ["c-b", 4],
      ["c-c", 4],
      ["c-new", 2],
    ]);
    expect(batches.some((b) => b.update)).toBe(false);
    const last = batches.at(-1) as ChatListBatch;
    expect(last.index?.fresh).toBe(false);
    expect(last.index?.sentence).toMatch(/^The search index is behind the log folder: 1 chat changed, 1 chat new /);
  });
});

describe("the chat list's share of the server's time", () => {
  it("makes a later batch a slice of rows at a time, with a turn of the event loop between slices", async () => {
    const list = streamChatList(liveContext({ home: null, logs, state, demo: false }), { batch: 1, rowsATurn: 1 });
    expect((await list.next()).value?.rows).toHaveLength(1);
    // Other work due meanwhile (another request) runs between the slices of the next batch, not after it.
    let turns = 0;
    let counting = true;
    const tick = () => {
      if (!counting) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const second = await list.next();
    counting = false;
    expect(second.value?.rows.map((r: { id: string }) => r.id)).toEqual(["c-b", "c-a"]);
    expect(turns).toBeGreaterThanOrEqual(1);
    await list.return(undefined);
  });
});

describe("the index's folder check on the decode worker", () => {
  it("gives the verdict this thread's check gives, before and after a change", async () => {
    const here = () => checkIndexFreshness(state, logs);
    const there = () => inWorker("indexFreshness", state, logs);
    expect(await there()).toEqual(await here());
    await chat("c-new", 1);
    const after = await there();
    expect(after).toEqual(await here());
    expect(after.sentence).toMatch(/^The search index is behind the log folder: 1 chat new since/);
  });

  it("does not serve rows as current when the index was refreshed after they were read", async () => {
    const rows = readChatsFromIndex(state, logs, {
      compress: true,
      // The folder changes and a refresh ends while the rows are shown: the worker's index is then newer.
      check: async () => {
        await chat("c-new", 1);
        await refreshIndex(state, logs, { compress: true });
        return inWorker("indexFreshness", state, logs);
      },
    });
    expect(
      rows
        .chatsAt(0, rows.count)
        .map((c) => c.id)
        .sort(),
    ).toEqual(["c-a", "c-b", "c-c"]);
    const freshness = await rows.freshness;
    expect(freshness.sentence).toBe("The search index is up to date (4 chats).");
    expect(freshness.fresh).toBe(false);
  });

  it("reads the rows page by page in the list's order, and a refresh between pages makes them not current", async () => {
    let answer: (f: Freshness) => void = () => {};
    const checked = new Promise<Freshness>((resolve) => {
      answer = resolve;
    });
    const rows = readChatsFromIndex(state, logs, { compress: true, firstPage: 1, check: () => checked });
    expect(rows.count).toBe(3);
    const first = rows.chatsAt(0, 1);
    // The check saw the index as the first page was read: up to date.
    const before = await checkIndexFreshness(state, logs);
    expect(before.fresh).toBe(true);
    await chat("c-new", 1);
    await refreshIndex(state, logs, { compress: true });
    const later = rows.chatsAt(1, rows.count);
    answer(before);
    // The newest chat first; later pages come from the refreshed index, after the last chat sent (a cursor, not
    // an offset: c-new, now ahead of it, moves no chat into a page twice). The list must not take them as
    // current: the folder listing that follows sends the rows as they are, c-new among them.
    expect(first.map((c) => c.id)).toEqual(["c-c"]);
    expect(later.map((c) => c.id)).toEqual(["c-b", "c-a"]);
    expect((await rows.freshness).fresh).toBe(false);
  });
});

describe("the chat list's notes (issue 29)", () => {
  it("gives each chat with marks or notes their count, from the index and from the folder alike", async () => {
    const { addNote } = await import("@/lib/notes");
    const { readLines } = await import("@/lib/chats/read");
    const read = await readLines(logs, "c-b", { from: 1, count: 2 });
    for (const line of read.lines)
      await addNote(state, {
        chat: "c-b",
        generation: read.generation,
        line: line.n,
        lineText: line.raw,
        text: `note ${line.n}`,
      });
    const rows = (await collect()).flatMap((b) => b.rows);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.notes]))).toEqual({
      "c-a": undefined,
      "c-b": 2,
      "c-c": undefined,
    });
    // Listed from the folder (no index): the same counts.
    closeAllIndexes();
    rmSync(join(state, "index"), { recursive: true, force: true });
    const folderRows: ChatListBatch["rows"] = [];
    for await (const batch of streamChatList(liveContext({ home: null, logs, state, demo: false }), { batch: 2 }))
      folderRows.push(...batch.rows);
    expect(folderRows.find((r) => r.id === "c-b")?.notes).toBe(2);
    expect(folderRows.find((r) => r.id === "c-a")?.notes).toBeUndefined();
  });
});
