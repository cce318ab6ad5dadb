import type Database from "better-sqlite3";
import type { Db } from "./db";
import { perConnection } from "./per-connection";

/**
 * What every search reads again, kept per connection between searches: the
 * chats' newest-first order and the shown chats' rows. A search of a rare
 * word spends more on these (hundreds of chat lookups to sort the matching
 * chats) than on the FTS5 query itself. Everything kept is dropped as soon as
 * the index changes (`indexStamp`), so a refreshed chat is never shown as it was.
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

/** Chat rows kept at most: a long-lived server searching a huge folder keeps the recent ones only. */
const MAX_ROWS = 20_000;

interface Kept {
  stamp: string;
  /** Position of each chat (by cid) in `NEWEST_FIRST` order; -1 for no such chat. Built on first use. */
  rank: Int32Array | null;
  rows: Map<number, ChatRow>;
  statements: { stamp: Database.Statement; order: Database.Statement; rows: Database.Statement };
}

const keptOf = perConnection<Kept>((db) => ({
  stamp: "",
  rank: null,
  rows: new Map(),
  statements: {
    // data_version moves when another connection (a refresh worker, another process) commits; total_changes()
    // counts this connection's own writes, which data_version does not see.
    stamp: db.prepare("SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()").pluck(),
    order: db.prepare(`SELECT cid FROM chats ${NEWEST_FIRST}`).pluck(),
    rows: db.prepare(
      "SELECT cid, id, title, cwd, folder, last_activity, problems FROM chats WHERE cid IN (SELECT value FROM json_each(?))",
    ),
  },
}));

/**
 * A value that changes whenever the index's content does (a commit by any
 * connection). A search reads it once, before anything it may keep: what it
 * then reads is at least as new as the stamp, so a kept value is never older
 * than the stamp it is kept under.
 */
export function indexStamp(db: Db): string {
  return keptOf(db).statements.stamp.get() as string;
}

/** This connection's kept values, emptied when the index changed since they were read. */
function current(db: Db, stamp: string): Kept {
  const kept = keptOf(db);
  if (kept.stamp !== stamp) {
    kept.stamp = stamp;
    kept.rank = null;
    kept.rows.clear();
  }
  return kept;
}

function rankOf(kept: Kept): Int32Array {
  if (kept.rank) return kept.rank;
  const order = kept.statements.order.all() as number[];
  let max = -1;
  for (const cid of order) if (cid > max) max = cid;
  const rank = new Int32Array(max + 1).fill(-1);
  order.forEach((cid, i) => {
    rank[cid] = i;
  });
  kept.rank = rank;
  return rank;
}

/** The given chats (cids) that exist, newest first, at most `limit`; `stamp` is the search's `indexStamp`. */
export function newestOf(db: Db, stamp: string, cids: Iterable<number>, limit: number): number[] {
  const rank = rankOf(current(db, stamp));
  const known: number[] = [];
  for (const cid of cids) if ((rank[cid] ?? -1) >= 0) known.push(cid);
  known.sort((a, b) => (rank[a] as number) - (rank[b] as number));
  if (known.length > limit) known.length = limit;
  return known;
}

/** The rows of the given chats, in the order given (a cid with no row is left out). */
export function chatRows(db: Db, stamp: string, cids: number[]): ChatRow[] {
  const kept = current(db, stamp);
  const missing = cids.filter((cid) => !kept.rows.has(cid));
  if (missing.length) {
    if (kept.rows.size + missing.length > MAX_ROWS) kept.rows.clear();
    for (const row of kept.statements.rows.all(JSON.stringify(missing)) as ChatRow[]) kept.rows.set(row.cid, row);
  }
  return cids.flatMap((cid) => kept.rows.get(cid) ?? []);
}
