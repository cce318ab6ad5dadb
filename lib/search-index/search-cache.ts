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

/** The chats' order in results, read from the index `chats_recent`: the most recently active first, ties by `cid`. */
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
/** The chats' order is read this many at first, then twice as many as are read at each step. */
const FIRST_PAGE = 1024;
/** Chats read in order for the cost of one chat looked up by cid (and sorted) in SQLite. */
const SEEK_COST = 8;

/** Chat rows kept at most: a long-lived server searching a huge folder keeps the recent ones only. */
const MAX_ROWS = 20_000;

/** The chats' order as far as it was read: the cids newest first, and each one's place by cid (-1: not read). */
interface Order {
  cids: number[];
  rank: Int32Array;
  /** Every chat is read. */
  complete: boolean;
}

interface Kept {
  stamp: string;
  order: Order | null;
  /** A search under this stamp sorted its chats in SQLite. */
  sortedInSql: boolean;
  rows: Map<number, ChatRow>;
  /** Searches run inside another's open transaction, each given a stamp of its own. */
  unkept: number;
  statements: Record<"stamp" | "maxCid" | "order" | "rows" | "newest" | "begin" | "commit", Database.Statement>;
}

const keptOf = perConnection<Kept>((db) => ({
  stamp: "",
  order: null,
  sortedInSql: false,
  rows: new Map(),
  unkept: 0,
  statements: {
    begin: db.prepare("BEGIN"),
    commit: db.prepare("COMMIT"),
    // data_version moves when another connection (a refresh worker, another process) commits; total_changes()
    // counts this connection's own writes, which data_version does not see.
    stamp: db.prepare("SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()").pluck(),
    maxCid: db.prepare("SELECT max(cid) FROM chats").pluck(),
    order: db.prepare(`SELECT cid FROM chats ${NEWEST_FIRST} LIMIT ? OFFSET ?`).pluck(),
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
    kept.sortedInSql = false;
    kept.rows.clear();
  }
  return kept;
}

/** Reads the next page of the chats' order (as many as are read already, at least `FIRST_PAGE`). */
function extendOrder(kept: Kept): Order {
  let order = kept.order;
  if (!order) {
    const max = (kept.statements.maxCid.get() as number | null) ?? -1;
    order = { cids: [], rank: new Int32Array(max + 1).fill(-1), complete: false };
    kept.order = order;
  }
  const n = Math.max(FIRST_PAGE, order.cids.length);
  const page = kept.statements.order.all(n, order.cids.length) as number[];
  // Plain loops: they run before V8 has compiled anything here.
  for (let i = 0; i < page.length; i++) {
    const cid = page[i] as number;
    if (cid < order.rank.length) order.rank[cid] = order.cids.length;
    order.cids.push(cid);
  }
  if (page.length < n) order.complete = true;
  return order;
}

/**
 * The rows of the given chats (cids) that exist, newest first, at most
 * `limit`; `stamp` is the search's. They are sorted by their places in the
 * chats' order, read newest first a page at a time and kept: a search needs
 * only as deep as its `limit` newest chats. Chats too few to be worth a page
 * (a seek each costs about `SEEK_COST` rows read in order) are sorted in
 * SQLite instead, by the first such search under a stamp only: while the
 * index keeps changing no page is read for them, and once it holds still the
 * pages read serve every later search.
 */
export function newestChats(db: Db, stamp: string, cids: number[], limit: number): ChatRow[] {
  const kept = current(db, stamp);
  let order = kept.order;
  const places = new Int32Array(cids.length);
  for (;;) {
    if (order) {
      let known = 0;
      for (const cid of cids) {
        const place = cid < order.rank.length ? (order.rank[cid] as number) : -1;
        if (place >= 0) places[known++] = place;
      }
      // Those not read yet come after all of these: enough of these, and they are the newest.
      if (known >= limit || order.complete) {
        // A native sort of numbers, no comparator called per pair.
        const sorted = places.subarray(0, known).sort();
        const chats = order.cids;
        return chatRows(
          kept,
          Array.from(sorted.subarray(0, Math.min(known, limit)), (place) => chats[place] as number),
        );
      }
    }
    if (!kept.sortedInSql && cids.length * SEEK_COST < Math.max(FIRST_PAGE, order?.cids.length ?? 0)) {
      kept.sortedInSql = true;
      const rows = kept.statements.newest.all(JSON.stringify(cids), limit) as ChatRow[];
      for (const row of rows) keepRow(kept, row);
      return rows;
    }
    order = extendOrder(kept);
  }
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
