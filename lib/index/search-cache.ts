import type Database from "better-sqlite3";
import type { Db } from "./db";
import { perConnection } from "./per-connection";

/**
 * What every search reads again, kept per connection between searches: the
 * chats' newest-first order and the shown chats' rows. A search of a rare
 * word spends more on these (hundreds of chat lookups to sort the matching
 * chats) than on the FTS5 query itself. Everything kept is dropped as soon as
 * the index changes (the stamp of `withSnapshot`), so a re-read chat is never
 * shown as it was. The shown entries' text is kept beside (`snippets.ts`).
 */

/** The chats' order in results: the most recently active first. */
export const NEWEST_FIRST = "ORDER BY last_activity IS NULL, last_activity DESC, cid";

/** A shown chat's row. */
export interface ChatRow {
  cid: number;
  id: string;
  title: string | null;
  cwd: string | null;
  folder: string;
  last_activity: string | null;
  problems: number;
}

const ROW = "cid, id, title, cwd, folder, last_activity, problems";
/** Up to this many chats, the first search under a stamp sorts them in SQLite rather than read the whole order. */
const SORT_IN_SQL = 2_000;

/** Chat rows kept at most: a long-lived server searching a huge folder keeps the recent ones only. */
const MAX_ROWS = 20_000;

interface Kept {
  stamp: string;
  /** The cids in `NEWEST_FIRST` order, and each chat's place in it by cid (-1: no such chat); see `newestChats`. */
  order: { order: Int32Array; rank: Int32Array } | null;
  rows: Map<number, ChatRow>;
  /** Searches served under this stamp. */
  searches: number;
  /** Searches run inside another's open transaction, each given a stamp of its own. */
  unkept: number;
  statements: Record<"stamp" | "order" | "rows" | "newest" | "begin" | "commit", Database.Statement>;
}

const keptOf = perConnection<Kept>((db) => ({
  stamp: "",
  order: null,
  rows: new Map(),
  searches: 0,
  unkept: 0,
  statements: {
    begin: db.prepare("BEGIN"),
    commit: db.prepare("COMMIT"),
    // data_version moves when another connection (a refresh worker, another process) commits; total_changes()
    // counts this connection's own writes, which data_version does not see.
    stamp: db.prepare("SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()").pluck(),
    order: db.prepare(`SELECT cid FROM chats ${NEWEST_FIRST}`).pluck(),
    rows: db.prepare(`SELECT ${ROW} FROM chats WHERE cid IN (SELECT value FROM json_each(?))`),
    newest: db.prepare(
      `SELECT ${ROW} FROM chats WHERE cid IN (SELECT value FROM json_each(?)) ${NEWEST_FIRST} LIMIT ?`,
    ),
  },
}));

/**
 * Runs a search's reads as one read transaction: its counts, chats and
 * snippets come from one state of the index, and SQLite takes its read lock
 * once rather than for each of its statements. `body` is given the index's
 * stamp, a value that changes whenever the index's content does (a commit by
 * any connection); it is read before anything the search may keep, so what
 * is kept is never older than the stamp it is kept under. Inside a
 * transaction left open on this connection (a refresh's batch, which may
 * still be rolled back), each search gets a stamp no other has: nothing it
 * reads is kept past it.
 */
export function withSnapshot<T>(db: Db, body: (stamp: string) => T): T {
  const kept = keptOf(db);
  if (db.inTransaction) return body(`open transaction ${++kept.unkept}`);
  kept.statements.begin.run();
  try {
    return body(kept.statements.stamp.get() as string);
  } finally {
    if (db.inTransaction) kept.statements.commit.run();
  }
}

/** This connection's kept values, emptied when the index changed since they were read. */
function current(db: Db, stamp: string): Kept {
  const kept = keptOf(db);
  if (kept.stamp !== stamp) {
    kept.stamp = stamp;
    kept.order = null;
    kept.searches = 0;
    kept.rows.clear();
  }
  return kept;
}

function orderOf(kept: Kept): { order: Int32Array; rank: Int32Array } {
  if (kept.order) return kept.order;
  const order = Int32Array.from(kept.statements.order.all() as number[]);
  // Plain loops: this runs once per change of the index, over every chat, before V8 has compiled anything here.
  let max = -1;
  for (let i = 0; i < order.length; i++) if ((order[i] as number) > max) max = order[i] as number;
  const rank = new Int32Array(max + 1).fill(-1);
  for (let i = 0; i < order.length; i++) rank[order[i] as number] = i;
  kept.order = { order, rank };
  return kept.order;
}

/**
 * The rows of the given chats (cids) that exist, newest first, at most
 * `limit`; `stamp` is the search's. The chats' whole order is read (100,000
 * chats: tens of ms) only once a stamp serves a second search, or for a
 * search matching many chats: while the index keeps changing, each search
 * sorts its few chats in SQLite instead.
 */
export function newestChats(db: Db, stamp: string, cids: number[], limit: number): ChatRow[] {
  const kept = current(db, stamp);
  kept.searches++;
  if (!kept.order && kept.searches === 1 && cids.length <= SORT_IN_SQL) {
    const rows = kept.statements.newest.all(JSON.stringify(cids), limit) as ChatRow[];
    for (const row of rows) keepRow(kept, row);
    return rows;
  }
  const { order, rank } = orderOf(kept);
  // Their places in the order, sorted as numbers (a native sort, no comparator called per pair).
  const places = new Int32Array(cids.length);
  let known = 0;
  for (const cid of cids) {
    const place = rank[cid] ?? -1;
    if (place >= 0) places[known++] = place;
  }
  const sorted = places.subarray(0, known).sort();
  return chatRows(
    kept,
    Array.from(sorted.subarray(0, Math.min(known, limit)), (place) => order[place] as number),
  );
}

function keepRow(kept: Kept, row: ChatRow): void {
  if (kept.rows.size >= MAX_ROWS) kept.rows.clear();
  kept.rows.set(row.cid, row);
}

/** The rows of the given chats, in the order given (a cid with no row is left out). */
function chatRows(kept: Kept, cids: number[]): ChatRow[] {
  const missing = cids.filter((cid) => !kept.rows.has(cid));
  if (missing.length)
    for (const row of kept.statements.rows.all(JSON.stringify(missing)) as ChatRow[]) keepRow(kept, row);
  return cids.flatMap((cid) => kept.rows.get(cid) ?? []);
}
