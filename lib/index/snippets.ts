import Database from "better-sqlite3";
import type { Db } from "./db";
import { perConnection } from "./per-connection";
import { ftsTable } from "./schema";
import { readTexts } from "./texts";

/**
 * Snippets for the hits a search shows. The index's FTS5 table keeps no text,
 * so FTS5's own `snippet()` cannot run on it; instead the shown entries' text
 * is put in a small in-memory FTS5 table with the same tokenizer and the same
 * query is run there. `snippet()` looks only at the row's own text and the
 * query's matches in it, so the snippets are the ones the stored text gave.
 */

const OPEN = "\u0001";
const CLOSE = "\u0002";
/** Tokens around the matches, as before. */
const TOKENS = 24;

export { CLOSE, OPEN };

interface Cutter {
  mem: Database.Database;
  clear: Database.Statement;
  insert: Database.Statement;
  cut: Database.Statement;
}

// One in-memory database per index connection: its writes must not count as the index's changes.
const cutterOf = perConnection<Cutter>(() => {
  const mem = new Database(":memory:");
  mem.exec(ftsTable("lines_fts"));
  return {
    mem,
    clear: mem.prepare("DELETE FROM lines_fts"),
    insert: mem.prepare("INSERT INTO lines_fts (rowid, text) VALUES (CAST(? AS INTEGER), ?)"),
    cut: mem.prepare(
      `SELECT rowid AS rid, snippet(lines_fts, 0, char(1), char(2), '…', ${TOKENS}) AS text FROM lines_fts WHERE lines_fts MATCH ?`,
    ),
  };
});

/** Each shown entry's snippet with the matches between `OPEN` and `CLOSE`, keyed by rowid. */
export function cutSnippets(db: Db, query: string, rowids: number[]): Map<number, string> {
  const out = new Map<number, string>();
  if (!rowids.length) return out;
  const texts = readTexts(db, rowids);
  const c = cutterOf(db);
  c.mem.transaction(() => {
    c.clear.run();
    for (const [rid, text] of texts) c.insert.run(rid, text);
  })();
  for (const row of c.cut.iterate(query) as Iterable<{ rid: number; text: string }>) out.set(row.rid, row.text);
  return out;
}
