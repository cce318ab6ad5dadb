import type { ChatSort, ChatSortKey } from "../chats/views";
import type { Db } from "./per-connection";
import { SUMMARY_SQL } from "./summary-codec";

/**
 * The chat list's orders, read from the index: each sortable column has an
 * index of its value and the chat's id, built in the direction a first click
 * sorts in (`first`: names A to Z, numbers and moments largest first) with
 * ties by id A to Z. The other direction reads the same index backwards, so
 * the second click gives exactly the list reversed (ties by id Z to A). No
 * order sorts the chats: a page is a seek in its index and the next rows.
 *
 * Each value is what the page sorts by (`components/chats/list-view.ts`) as
 * far as the index holds it: the lock's and the problems' are those recorded
 * at the last refresh (the page judges a lock again when it shows it, so a
 * lock gone stale since keeps its place until the next refresh), and a title
 * is lower-cased by SQLite's `lower()`, ASCII letters only.
 */
interface SortColumn {
  /** The value, an SQL expression over a `chats` row (never NULL, so a page's cursor compares). */
  sql: string;
  /** The direction the index is built in. */
  first: ChatSort["dir"];
  /** The index's name. */
  index: string;
}

export const LOCK_RANK = `CASE ${SUMMARY_SQL.lockState} WHEN 'unknown' THEN 1 WHEN 'live' THEN 2 WHEN 'stale' THEN 3 ELSE 0 END`;
const TOKENS =
  "coalesce(json_extract(ltrim(summary, '~'), '$.inputTokens'), 0) + coalesce(json_extract(ltrim(summary, '~'), '$.outputTokens'), 0)";

export const SORT_COLUMNS: Record<ChatSortKey, SortColumn> = {
  title: { sql: "lower(coalesce(title, id))", first: "asc", index: "chats_by_title" },
  folder: { sql: "coalesce(cwd, '')", first: "asc", index: "chats_by_folder" },
  lastActivity: { sql: "coalesce(last_activity, '')", first: "desc", index: "chats_by_activity" },
  messages: { sql: "messages", first: "desc", index: "chats_by_messages" },
  tokens: { sql: TOKENS, first: "desc", index: "chats_by_tokens" },
  format: { sql: "coalesce(format, 0)", first: "desc", index: "chats_by_format" },
  lock: { sql: LOCK_RANK, first: "desc", index: "chats_by_lock" },
  problems: { sql: SUMMARY_SQL.problems, first: "desc", index: "chats_by_problems" },
};

/** The list's order when none is asked for: newest activity first. */
export const DEFAULT_ORDER: ChatSort = { key: "lastActivity", dir: "desc" };

/** A chat's group (its log folder's first part) from its folder, as `indexedGroups` groups by it. */
export const GROUP_OF_FOLDER = "substr(folder, 1, instr(folder, '/') - 1)";

/**
 * The groups' counts (`indexedGroups`: the chat list's first batch, Home) read from this index alone: over the
 * table they read every chat's row and summary and sorted the groups (0.6–2.5 s at 100,000 chats on a loaded
 * machine, each load; 0.06–0.18 s from this index, which holds the group, the cwd and the folder).
 */
const GROUP_INDEX = `CREATE INDEX IF NOT EXISTS chats_by_group ON chats(${GROUP_OF_FOLDER}, cwd, folder);`;

/**
 * The sort indexes (and the groups' index), created where missing: part of a new index's schema, and added to an index of the same
 * version when it is opened (adding them costs a pass over the chats; a rebuild would read every log again).
 * `chats_list`, the one order of earlier builds, is replaced by `chats_by_activity`.
 */
export const SORT_INDEXES = `${Object.values(SORT_COLUMNS)
  .map((c) => `CREATE INDEX IF NOT EXISTS ${c.index} ON chats(${c.sql}${c.first === "desc" ? " DESC" : ""}, id);`)
  .join("\n")}
DROP INDEX IF EXISTS chats_list;
${GROUP_INDEX}`;

/** Where a page of an order ends: its last chat's value and id (the next page starts after it). */
export interface OrderCursor {
  key: string | number;
  id: string;
}

/** One chat of a page: its row id, and where it sits in the order. */
export interface OrderedChat extends OrderCursor {
  cid: number;
}

/** The `ORDER BY` of an order, as its index holds it (so SQLite reads the index, and sorts nothing). */
export function orderBy(order: ChatSort): string {
  const { sql, first } = SORT_COLUMNS[order.key];
  return `ORDER BY ${sql} ${order.dir === "asc" ? "ASC" : "DESC"}, id ${order.dir === first ? "ASC" : "DESC"}`;
}

/**
 * Up to `n` chats of `order` after `after` (from the start when `null`), each a seek in the order's index:
 * the rest of `after`'s ties, then the values past it. No `OFFSET`: page k costs what page 1 costs.
 */
export function orderedChats(db: Db, order: ChatSort, after: OrderCursor | null, n: number): OrderedChat[] {
  const { sql, first } = SORT_COLUMNS[order.key];
  const forward = order.dir === first;
  const by = `${orderBy(order)} LIMIT ?`;
  const select = `SELECT cid, id, ${sql} AS key FROM chats`;
  if (!after) return db.prepare(`${select} ${by}`).all(n) as OrderedChat[];
  // Within one value the order is the id's alone (said so: SQLite sorts again by an expression held equal).
  const ties = db
    .prepare(
      `${select} WHERE ${sql} = ? AND id ${forward ? ">" : "<"} ? ORDER BY id ${forward ? "ASC" : "DESC"} LIMIT ?`,
    )
    .all(after.key, after.id, n) as OrderedChat[];
  if (ties.length >= n) return ties;
  const past = db
    .prepare(`${select} WHERE ${sql} ${order.dir === "asc" ? ">" : "<"} ? ${by}`)
    .all(after.key, n - ties.length) as OrderedChat[];
  return ties.concat(past);
}
