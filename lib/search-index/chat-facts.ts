import type { ChatSummary } from "../chats";
import { byCwd, type FilterableRow, groupOptions, NO_CWD_LABEL } from "../chats/list-filter";
import type { ChatSort } from "../chats/views";
import { type IndexHandle, openReader, readMeta } from "./db";
import { GROUP_OF_FOLDER, orderBy } from "./list-order";
import { indexedGroups, rowsOf } from "./list-rows";
import { countProblemChatsNow } from "./problem-count";
import { summaryOfRow } from "./status";
import { SUMMARY_SQL } from "./summary-codec";

/**
 * What the chat list filters and groups by, for every chat of the index, in
 * one of the table's orders: the page reads the list a window at a time
 * (`server/views/chat-window.ts`), and the server keeps these short rows to
 * say which chats each window holds. They come from the row's columns and a
 * few fields of its stored summary, without decoding it, in one pass over the
 * order's index; a chat with a lock is decoded, since its lock (and its
 * stale-lock problem) is judged again now, as the list shows it.
 */
export interface ChatFacts extends FilterableRow {
  /** The chat's row in the index. */
  cid: number;
  cwd: string | null;
}

/** Every chat's facts in `order`, and the refresh they were read under. */
export interface IndexedFacts {
  facts: ChatFacts[];
  refreshedAt: string | null;
}

/**
 * Work between two turns of the event loop while the facts are read, in ms. Every chat's facts are about a
 * second of one thread at 100,000 chats: read in one piece, every other request of the server waited for them.
 */
export const FACTS_SLICE_MS = 8;
/** Rows read between two looks at the clock. */
export const FACTS_ROWS_A_LOOK = 64;
/** Locked chats decoded and judged between two looks at the clock. */
const LOCKED_A_LOOK = 32;

/** How a facts read is run. */
export interface FactsReadOptions {
  /** Aborted when nobody waits for the facts any more: the read stops at its next turn, with the signal's reason. */
  signal?: AbortSignal | null;
  /** Work between two turns, in ms (`FACTS_SLICE_MS`; 0, for tests: a turn at every look at the clock). */
  sliceMs?: number;
}

const SUMMARY = "ltrim(summary, '~')";

type Raw = [number, string, string | null, string, string | null, string | null, number | null, string, number, number];

const factsSql = (order: ChatSort) =>
  `SELECT cid, id, title, ${GROUP_OF_FOLDER}, cwd, first_activity,
    format, ${SUMMARY_SQL.lockState}, ${SUMMARY_SQL.problems}, json_array_length(${SUMMARY}, '$.generations')
    FROM chats ${orderBy(order)}`;

function factOf(raw: Raw): ChatFacts {
  const [cid, id, title, group, cwd, firstActivity, format, lock, problems, generations] = raw;
  return {
    cid,
    id,
    title,
    group,
    cwd,
    firstActivity,
    format,
    lock: { state: lock },
    problems: { length: problems },
    generations: { length: generations },
  };
}

/**
 * Every chat's facts in `order`, read in slices of `FACTS_SLICE_MS` with a turn of the event loop between
 * them, so the server answers other requests meanwhile. The read has a read-only connection of its own
 * (`openReader`): better-sqlite3 allows no other statement on a connection while one of its iterators is
 * open, and the index's shared connection serves every other request between the slices. One transaction
 * holds the refresh and every row to one snapshot of the file, whatever its writer commits meanwhile.
 */
export async function readChatFacts(
  handle: IndexHandle,
  order: ChatSort,
  options: FactsReadOptions = {},
): Promise<IndexedFacts> {
  const { signal = null, sliceMs = FACTS_SLICE_MS } = options;
  signal?.throwIfAborted();
  const db = openReader(handle);
  try {
    db.exec("BEGIN");
    const refreshedAt = readMeta(db, "refreshedAt");
    let sliceEnd = performance.now() + sliceMs;
    const pause = async () => {
      if (performance.now() < sliceEnd) return;
      await new Promise<void>((next) => setImmediate(next));
      signal?.throwIfAborted();
      sliceEnd = performance.now() + sliceMs;
    };
    const facts: ChatFacts[] = [];
    const locked: number[] = [];
    // Leaving the loop (a throw at a turn) closes the iterator.
    for (const raw of db.prepare(factsSql(order)).raw().iterate() as IterableIterator<Raw>) {
      const fact = factOf(raw);
      if (fact.lock.state !== "none") locked.push(facts.length);
      facts.push(fact);
      if (facts.length % FACTS_ROWS_A_LOOK === 0) await pause();
    }
    for (let at = 0; at < locked.length; at += LOCKED_A_LOOK) {
      const some = locked.slice(at, at + LOCKED_A_LOOK);
      const cids = some.map((i) => (facts[i] as ChatFacts).cid);
      const judged = new Map(rowsOf(db, cids).map((row) => [row.id, summaryOfRow(row, handle.logDir)]));
      for (const i of some) {
        const f = facts[i] as ChatFacts;
        const chat = judged.get(f.id);
        if (chat) facts[i] = { ...f, lock: { state: chat.lock.state }, problems: { length: chat.problems.length } };
      }
      await pause();
    }
    db.exec("COMMIT");
    return { facts, refreshedAt };
  } finally {
    db.close();
  }
}

/** The summaries of `cids`, in that order, as the list shows them (a chat gone from the index is left out). */
export function chatsByCid(handle: IndexHandle, cids: number[]): ChatSummary[] {
  return rowsOf(handle.db, cids).map((row) => summaryOfRow(row, handle.logDir));
}

/** The whole list's counts, its filters' options and its groups (working folders A to Z, `_no-cwd` last). */
export interface WholeHead {
  total: number;
  withProblems: number;
  groupOptions: { group: string; label: string }[];
  formats: number[];
  groups: { group: string; label: string; count: number }[];
}

/**
 * The list's counts and groups when no filter is set, from the index's own indexes: the groups' counts from
 * theirs, the chats with problems from the problems' order. No pass over every chat.
 */
export function readWholeHead(handle: IndexHandle): WholeHead {
  const db = handle.db;
  const indexed = indexedGroups(db);
  return {
    total: indexed.reduce((n, g) => n + g.count, 0),
    withProblems: countProblemChatsNow(handle),
    groupOptions: groupOptions(indexed),
    formats: db
      .prepare("SELECT DISTINCT format FROM chats WHERE format IS NOT NULL ORDER BY format")
      .pluck()
      .all() as number[],
    groups: [...indexed]
      .sort((a, b) => byCwd(a.cwd, b.cwd))
      .map((g) => ({ group: g.group, label: g.cwd ?? NO_CWD_LABEL, count: g.count })),
  };
}

/**
 * The chats at places `from`–`to` (excluded) of the list when no filter is set: from the order's index, or
 * within each group of `groups` (`readWholeHead`) when grouped, a group being a few hundred chats to sort.
 * About 10 ms at 100,000 chats, where reading every chat's facts takes about a second.
 */
export function readWholePlaces(
  handle: IndexHandle,
  order: ChatSort,
  groups: WholeHead["groups"] | null,
  from: number,
  to: number,
): number[] {
  const db = handle.db;
  const by = orderBy(order);
  if (!groups)
    return db
      .prepare(`SELECT cid FROM chats ${by} LIMIT ? OFFSET ?`)
      .pluck()
      .all(to - from, from) as number[];
  const inGroup = db.prepare(`SELECT cid FROM chats WHERE ${GROUP_OF_FOLDER} = ? ${by} LIMIT ? OFFSET ?`).pluck();
  const cids: number[] = [];
  let place = 0;
  for (const g of groups) {
    const lo = Math.max(from, place);
    const hi = Math.min(to, place + g.count);
    if (lo < hi) cids.push(...(inGroup.all(g.group, hi - lo, lo - place) as number[]));
    place += g.count;
    if (place >= to) break;
  }
  return cids;
}
