import type { Db } from "./db";
import { readMeta } from "./db";
import { SUMMARY_COLUMNS, type SummaryColumns } from "./summary-codec";

/** One chat's row as the chat list reads it from the index: what `decodeSummary` needs, and its source. */
export interface ListRow extends SummaryColumns {
  source: "checkpoint" | "log";
  summary: string;
}

/** The list's order: newest activity first, chats without activity last, then by id. */
const ORDER = "ORDER BY last_activity DESC, id";

/**
 * `n` rows from `from` on, in the list's order: their chats read from the
 * `chats_list` index alone (it holds the order: no sort of every chat), then
 * their summaries; a chat that left the index between the two reads is skipped.
 */
function pageRows(db: Db, from: number, n: number): ListRow[] {
  const cids = db
    .prepare(`SELECT cid FROM chats INDEXED BY chats_list ${ORDER} LIMIT ? OFFSET ?`)
    .pluck()
    .all(n, from) as number[];
  const summaries = new Map(
    (
      db
        .prepare(`SELECT cid, ${SUMMARY_COLUMNS}, source FROM chats WHERE cid IN (SELECT value FROM json_each(?))`)
        .all(JSON.stringify(cids)) as (ListRow & { cid: number })[]
    ).map(({ cid, ...row }) => [cid, row]),
  );
  const rows: ListRow[] = [];
  for (const cid of cids) {
    const row = summaries.get(cid);
    if (row !== undefined) rows.push(row);
  }
  return rows;
}

/**
 * The index's chat rows in the list's order, read as they are asked for. The
 * summaries of 100,000 chats are about 90 MB of JSON: sorting them all and
 * reading them at once would hold the event loop for seconds before the first
 * rows go out. So each page is read when it is asked for (`pageRows`), the
 * first one at once. A refresh of the index that ends
 * meanwhile is seen (`refreshedSince`): the caller then takes the rows as not current.
 */
export class IndexRows {
  readonly count: number;
  private readonly refreshedAt: string | null;
  private readonly first: ListRow[];
  private changed = false;

  constructor(
    private readonly db: Db,
    firstPage: number,
  ) {
    this.refreshedAt = readMeta(db, "refreshedAt");
    this.count = (db.prepare("SELECT count(*) AS n FROM chats").get() as { n: number }).n;
    this.first = pageRows(db, 0, firstPage);
  }

  /** True when the index was refreshed after the first rows were read (later rows may not fit them). */
  refreshedSince(): boolean {
    this.changed ||= readMeta(this.db, "refreshedAt") !== this.refreshedAt;
    return this.changed;
  }

  /** Rows `from` to `to` (excluded), in the list's order; a row whose chat left the index meanwhile is skipped. */
  at(from: number, to: number): ListRow[] {
    if (to <= this.first.length) return this.first.slice(from, to);
    return pageRows(this.db, from, to - from);
  }
}
