import Database from "better-sqlite3";
import type { Db } from "./db";
import { type LogRead, planLogReads } from "./log-texts";
import { perConnection } from "./per-connection";
import { ftsTable } from "./schema";
import { readTexts } from "./texts";

/**
 * Snippets for the hits a search shows. The index's FTS5 table keeps no text,
 * so FTS5's own `snippet()` cannot run on it; instead the shown entries' text
 * is put in a small in-memory FTS5 table with the same tokenizer and the same
 * query is run there. `snippet()` looks only at the row's own text and the
 * query's matches in it, so the snippets are the ones the stored text gave.
 * The text comes from the index's blocks or, for entries deep in a large log,
 * from the log itself (`log-texts.ts`): a search plans what it needs within
 * its snapshot (`planShown`), reads those logs after it, then cuts (`cutShown`).
 *
 * The in-memory table is kept between searches, with each entry's line, role
 * and time beside its text: the next page, or the same search again, reads,
 * inflates and tokenizes nothing new. It is dropped whole when the index
 * changes (a re-read chat's entries may have other text under the same rowid)
 * and when it holds more than `MAX_KEPT` entries.
 */

const OPEN = "\u0001";
const CLOSE = "\u0002";
/** Tokens around the matches, as before. */
const TOKENS = 24;
/** Entries kept at most: a few pages of results, few enough that matching the query over all of them is cheap. */
const MAX_KEPT = 512;

export { CLOSE, OPEN };

/** A shown entry: its line, role and time, and its snippet with the matches between `OPEN` and `CLOSE`. */
export interface ShownEntry {
  line: number;
  role: string;
  ts: string | null;
  text: string;
}

/** The kept in-memory FTS5 table. */
export interface Cutter {
  mem: Database.Database;
  insert: Database.Statement;
  cut: Database.Statement;
  /** Rowids in the table. */
  kept: Set<number>;
  /** The index's stamp when the table was filled. */
  stamp: string;
}

/** A new, empty snippet table (the bench's snippet floor makes one too). */
export function newCutter(stamp: string): Cutter {
  const mem = new Database(":memory:");
  mem.exec(ftsTable("lines_fts", ", line UNINDEXED, role UNINDEXED, ts UNINDEXED"));
  return {
    mem,
    insert: mem.prepare(
      "INSERT INTO lines_fts (rowid, text, line, role, ts) VALUES (CAST(@id AS INTEGER), @text, @line, @role, @ts)",
    ),
    // `+rowid`: the list only filters what the query matches; as a constraint FTS5 would run the query again for
    // each rowid listed (seven times slower for 20 hits).
    cut: mem.prepare(
      `SELECT rowid AS id, line, role, ts, snippet(lines_fts, 0, char(1), char(2), '…', ${TOKENS}) AS text
         FROM lines_fts WHERE lines_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`,
    ),
    kept: new Set(),
    stamp,
  };
}

type EntryRow = Omit<ShownEntry, "text"> & { id: number };

interface Holder {
  cutter: Cutter | null;
  lines: Database.Statement;
}

// One in-memory database per index connection: its writes must not count as the index's changes.
const holderOf = perConnection<Holder>((db) => ({
  cutter: null,
  lines: db.prepare("SELECT id, line, role, ts FROM lines WHERE id IN (SELECT value FROM json_each(?))"),
}));

/**
 * What cutting the snippets of `rowids` takes beyond what the kept table holds: the missing entries' rows
 * and stored text, read within the search's snapshot, and the log reads for those whose text is not
 * stored (`log-texts.ts`), done after it.
 */
export interface ShownPlan {
  stamp: string;
  rowids: number[];
  /** The kept table the plan counts on (null: a new one is made). */
  cutter: Cutter | null;
  rows: EntryRow[];
  texts: Map<number, string>;
  reads: LogRead[];
}

/** Plans the shown entries' snippets: reads the index only, within the search's snapshot (`stamp`). */
export function planShown(db: Db, stamp: string, rowids: number[]): ShownPlan {
  const holder = holderOf(db);
  const c = holder.cutter;
  let cutter: Cutter | null = c && c.stamp === stamp ? c : null;
  let missing = cutter ? rowids.filter((rid) => !cutter?.kept.has(rid)) : rowids;
  if (cutter && cutter.kept.size + missing.length > MAX_KEPT) {
    cutter = null;
    missing = rowids;
  }
  const plan: ShownPlan = { stamp, rowids, cutter, rows: [], texts: new Map(), reads: [] };
  if (!missing.length) return plan;
  plan.texts = readTexts(db, missing);
  const unstored = missing.filter((rid) => !plan.texts.has(rid));
  if (unstored.length) plan.reads = planLogReads(db, unstored);
  plan.rows = holder.lines.all(JSON.stringify(missing)) as EntryRow[];
  return plan;
}

/**
 * The shown entries, keyed by rowid, their snippets cut by FTS5 from the kept table filled with what the
 * plan read (`more`: the texts read back from logs); an entry whose text or row is missing is left out.
 * Null when the kept table the plan counted on was replaced meanwhile (another search on this connection
 * while this one read logs): the caller plans again.
 */
export function cutShown(
  db: Db,
  query: string,
  plan: ShownPlan,
  more: Map<number, string> | null,
): Map<number, ShownEntry> | null {
  const out = new Map<number, ShownEntry>();
  if (!plan.rowids.length) return out;
  const holder = holderOf(db);
  let c = plan.cutter;
  if (c && holder.cutter !== c) return null;
  if (!c) {
    holder.cutter?.mem.close();
    c = newCutter(plan.stamp);
    holder.cutter = c;
  }
  const cutter = c;
  if (plan.rows.length)
    cutter.mem.transaction(() => {
      for (const row of plan.rows) {
        const text = plan.texts.get(row.id) ?? more?.get(row.id);
        if (text === undefined || cutter.kept.has(row.id)) continue;
        cutter.insert.run({ ...row, text });
        cutter.kept.add(row.id);
      }
    })();
  for (const row of cutter.cut.iterate(query, JSON.stringify(plan.rowids)) as Iterable<EntryRow & { text: string }>)
    out.set(row.id, row);
  return out;
}
