import type { Db } from "./db";
import { readMeta } from "./db";
import { NEWEST_FIRST } from "./search-cache";
import { SUMMARY_COLUMNS, type SummaryColumns } from "./summary-codec";

/** One chat's row as the chat list reads it from the index: what `decodeSummary` needs, and its source. */
export interface ListRow extends SummaryColumns {
  source: "checkpoint" | "log";
  summary: string;
}

/** The list's order: newest activity first, chats without activity last, then by id. */
const ORDER = "ORDER BY last_activity DESC, id";

/**
 * The first `n` rows in the list's order without sorting every chat: the
 * first `n` by `chats_recent` (read from the index alone), and every chat of
 * the same moment as the last of them (ties the index orders otherwise), then
 * these few sorted as the list sorts. Every chat newer than that moment is
 * among them, so the first `n` are those the whole sort would give.
 */
function firstRows(db: Db, n: number): ListRow[] {
  const top = db.prepare(`SELECT cid, last_activity FROM chats ${NEWEST_FIRST} LIMIT ?`).raw().all(n) as [
    number,
    string | null,
  ][];
  const cids = new Set(top.map(([cid]) => cid));
  const last = top[top.length - 1];
  if (last && top.length === n) {
    const ties =
      last[1] === null
        ? db.prepare("SELECT cid FROM chats WHERE last_activity IS NULL")
        : db.prepare("SELECT cid FROM chats WHERE (last_activity IS NULL) = 0 AND last_activity = ?");
    for (const [cid] of (last[1] === null ? ties.raw().all() : ties.raw().all(last[1])) as [number][]) cids.add(cid);
  }
  return db
    .prepare(
      `SELECT ${SUMMARY_COLUMNS}, source FROM chats WHERE cid IN (SELECT value FROM json_each(?)) ${ORDER} LIMIT ?`,
    )
    .all(JSON.stringify([...cids]), n) as ListRow[];
}

/**
 * The index's chat rows in the list's order, read as they are asked for. The
 * summaries of 100,000 chats are about 90 MB of JSON: sorting them all and
 * reading them at once would hold the event loop for seconds before the first
 * rows go out. So the first page is read on its own (a sort of the small
 * columns, then its summaries), and each later page when it is asked for: its
 * chats from the `chats_list` index, which holds the list's order (no sort of
 * every chat), then their summaries. A refresh of the index that ends
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
    this.first = firstRows(db, firstPage);
  }

  /** True when the index was refreshed after the first rows were read (later rows may not fit them). */
  refreshedSince(): boolean {
    this.changed ||= readMeta(this.db, "refreshedAt") !== this.refreshedAt;
    return this.changed;
  }

  /** Rows `from` to `to` (excluded), in the list's order; a row whose chat left the index meanwhile is skipped. */
  at(from: number, to: number): ListRow[] {
    if (to <= this.first.length) return this.first.slice(from, to);
    const page = this.db
      .prepare(`SELECT cid FROM chats INDEXED BY chats_list ${ORDER} LIMIT ? OFFSET ?`)
      .all(to - from, from) as { cid: number }[];
    const summaries = new Map(
      (
        this.db
          .prepare(`SELECT cid, ${SUMMARY_COLUMNS}, source FROM chats WHERE cid IN (SELECT value FROM json_each(?))`)
          .all(JSON.stringify(page.map((r) => r.cid))) as (ListRow & { cid: number })[]
      ).map(({ cid, ...row }) => [cid, row]),
    );
    const rows: ListRow[] = [];
    for (const r of page) {
      const row = summaries.get(r.cid);
      if (row !== undefined) rows.push(row);
    }
    return rows;
  }
}
