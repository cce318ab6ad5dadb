import Database from "better-sqlite3";
import type { Db } from "./db";
import { readLogTexts } from "./log-texts";
import { perConnection } from "./per-connection";
import { ftsTable } from "./schema";
import { readTexts } from "./texts";

/**
 * Snippets for the hits a search shows. The index's FTS5 table keeps no text,
 * so FTS5's own `snippet()` cannot run on it; instead the shown entries' text
 * is put in a small in-memory FTS5 table with the same tokenizer and the same
 * query is run there. `snippet()` looks only at the row's own text and the
 * query's matches in it, so the snippets are the ones the stored text gave.
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

interface Cutter {
  mem: Database.Database;
  insert: Database.Statement;
  cut: Database.Statement;
  /** Rowids in the table. */
  kept: Set<number>;
  /** The index's stamp when the table was filled. */
  stamp: string;
}

function newCutter(stamp: string): Cutter {
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

/** The cutter holding the given entries, filled from the index with those it lacked. */
function cutterWith(db: Db, stamp: string, rowids: number[]): Cutter {
  const holder = holderOf(db);
  let c = holder.cutter;
  let missing = c && c.stamp === stamp ? rowids.filter((rid) => !c?.kept.has(rid)) : rowids;
  if (!c || c.stamp !== stamp || c.kept.size + missing.length > MAX_KEPT) {
    c?.mem.close();
    c = newCutter(stamp);
    holder.cutter = c;
    missing = rowids;
  }
  if (missing.length) {
    const texts = readTexts(db, missing);
    const unstored = missing.filter((rid) => !texts.has(rid));
    if (unstored.length) for (const [rid, text] of readLogTexts(db, unstored)) texts.set(rid, text);
    const rows = holder.lines.all(JSON.stringify(missing)) as EntryRow[];
    const cutter = c;
    cutter.mem.transaction(() => {
      for (const row of rows) {
        const text = texts.get(row.id);
        if (text === undefined) continue;
        cutter.insert.run({ ...row, text });
        cutter.kept.add(row.id);
      }
    })();
  }
  return c;
}

/**
 * The shown entries, keyed by rowid; an entry whose text or row is missing is
 * left out. `stamp` is the search's (`withSnapshot`): a change of the index empties the table.
 */
export function shownEntries(db: Db, stamp: string, query: string, rowids: number[]): Map<number, ShownEntry> {
  const out = new Map<number, ShownEntry>();
  if (!rowids.length) return out;
  const c = cutterWith(db, stamp, rowids);
  for (const row of c.cut.iterate(query, JSON.stringify(rowids)) as Iterable<EntryRow & { text: string }>)
    out.set(row.id, row);
  return out;
}
