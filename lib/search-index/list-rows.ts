import type { ChatSort } from "../chats/views";
import type { Db } from "./db";
import { readMeta } from "./db";
import { DEFAULT_ORDER, GROUP_OF_FOLDER, type OrderCursor, orderedChats } from "./list-order";
import { SUMMARY_COLUMNS, type SummaryColumns } from "./summary-codec";

/** One chat's row as the chat list reads it from the index: what `decodeSummary` needs, and its source. */
export interface ListRow extends SummaryColumns {
  source: "checkpoint" | "log";
  summary: string;
}

/**
 * The rows of `cids`, in that order: their summaries read in one query; a chat that left the index
 * since its place was read is skipped.
 */
export function rowsOf(db: Db, cids: number[]): ListRow[] {
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
 * The index's chat rows in one order (`list-order.ts`), read as they are
 * asked for. The summaries of 100,000 chats are about 90 MB of JSON: reading
 * them all at once would hold the event loop for seconds before the first
 * rows go out. So each page is read when it is asked for, the first one at
 * once, and the next page starts where the last one ended (a cursor, not an
 * `OFFSET` that walks every row before it again). A refresh of the index that
 * ends meanwhile is seen (`refreshedSince`): the caller then takes the rows as not current.
 */
export class IndexRows {
  readonly count: number;
  private readonly refreshedAt: string | null;
  private readonly first: ListRow[];
  private changed = false;
  /** Where the last page read ended: the place after it and its last chat. */
  private cursor: { at: number; after: OrderCursor | null };

  constructor(
    private readonly db: Db,
    firstPage: number,
    readonly order: ChatSort = DEFAULT_ORDER,
  ) {
    this.refreshedAt = readMeta(db, "refreshedAt");
    this.count = (db.prepare("SELECT count(*) AS n FROM chats").get() as { n: number }).n;
    this.cursor = { at: 0, after: null };
    this.first = this.page(0, firstPage);
  }

  /** True when the index was refreshed after the first rows were read (later rows may not fit them). */
  refreshedSince(): boolean {
    this.changed ||= readMeta(this.db, "refreshedAt") !== this.refreshedAt;
    return this.changed;
  }

  /**
   * Rows `from` to `to` (excluded), in the order; a row whose chat left the index meanwhile is skipped.
   * Read in turn (each `from` where the last `to` was), each page is a seek; any other `from` is read
   * from the start of the order.
   */
  at(from: number, to: number): ListRow[] {
    if (to <= this.first.length) return this.first.slice(from, to);
    return this.page(from, to - from);
  }

  private page(from: number, n: number): ListRow[] {
    if (from !== this.cursor.at) {
      // Out of turn (no caller of the list does this): the places before `from` are walked once, without
      // their summaries.
      this.cursor = { at: 0, after: null };
      while (this.cursor.at < from && this.advance(Math.min(from - this.cursor.at, 2000)).length);
    }
    return rowsOf(
      this.db,
      this.advance(n).map((c) => c.cid),
    );
  }

  /** The next `n` chats of the order after the cursor, which moves past them. */
  private advance(n: number) {
    const chats = orderedChats(this.db, this.order, this.cursor.after, n);
    const last = chats.at(-1);
    this.cursor = {
      at: this.cursor.at + chats.length,
      after: last ? { key: last.key, id: last.id } : this.cursor.after,
    };
    return chats;
  }
}

/** One working-folder group as the index holds it: its folder name, working folder and number of chats. */
export interface IndexedGroup {
  group: string;
  cwd: string | null;
  count: number;
}

/**
 * Every group of the index with its count of chats, read before the rows: the
 * chat list lays out each group's heading and place from its first paint, so
 * rows streamed in later fill their places instead of pushing the rest down.
 */
export function indexedGroups(db: Db): IndexedGroup[] {
  return db
    .prepare(
      // Read from the groups' index alone (`chats_by_group`, its expression the same text), in its order.
      `SELECT ${GROUP_OF_FOLDER} AS "group", min(cwd) AS cwd, count(*) AS count FROM chats GROUP BY 1`,
    )
    .all() as IndexedGroup[];
}
