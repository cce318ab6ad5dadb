import type Database from "better-sqlite3";
import type { SeekPoint } from "../chats";
import { type Db, ENTRY_SPAN, readMeta, writeMeta } from "./db";
import { perConnection } from "./per-connection";
import { decodeBlock, encodeBlock } from "./text-codec";

/**
 * The entries' text, which the FTS5 table does not keep: consecutive entries
 * of a chat are joined into blocks of about `BLOCK_CHARS` characters and
 * deflate-compressed (on the reader thread that read them; small blocks with
 * the index's dictionary, `text-codec.ts`), one
 * `texts` row per block keyed by its first entry's rowid. A search reads back
 * only the blocks of the hits it shows.
 */

/**
 * Characters of text per block: large enough to compress well (a long chat's
 * text is about a fifth of its size at 32 K, a quarter at 16 K), small enough
 * to decode one hit's block at once.
 */
const BLOCK_CHARS = 32_768;
/** A compressed block and the position of its first entry among the texts given. */
export interface PackedBlock {
  offset: number;
  data: Buffer;
}

/**
 * Splits `texts` into blocks and compresses them (small ones with `dictionary`, when the index has one). A
 * `null` is an entry whose text is read back from its log (`log-texts.ts`): it ends the block before it and
 * none holds it.
 */
export function packTexts(texts: (string | null)[], dictionary: Buffer | null = null): PackedBlock[] {
  const bounds: [number, number][] = [];
  let start = -1;
  let size = 0;
  const close = (end: number) => {
    if (start >= 0) bounds.push([start, end]);
    start = -1;
    size = 0;
  };
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i] as string | null;
    if (text === null) {
      close(i);
      continue;
    }
    if (start < 0) start = i;
    size += text.length;
    if (size >= BLOCK_CHARS) close(i + 1);
  }
  close(texts.length);
  return bounds.map(([from, to]) => ({
    offset: from,
    data: encodeBlock(Buffer.from(JSON.stringify(texts.slice(from, to))), dictionary),
  }));
}

interface TextStatements {
  insert: Database.Statement;
  block: Database.Statement;
  dropLines: Database.Statement;
  dropTexts: Database.Statement;
  insertSeek: Database.Statement;
  dropSeeks: Database.Statement;
  /** The index's dictionary, read once it is needed and exists. */
  dictionary: Buffer | null;
}
const statementsOf = perConnection<TextStatements>((db) => ({
  insert: db.prepare("INSERT INTO texts (id, data) VALUES (?, ?)"),
  block: db.prepare("SELECT id, data FROM texts WHERE id <= CAST(? AS INTEGER) ORDER BY id DESC LIMIT 1"),
  dropLines: db.prepare("DELETE FROM entries WHERE id >= ? AND id < ?"),
  dropTexts: db.prepare("DELETE FROM texts WHERE id >= ? AND id < ?"),
  insertSeek: db.prepare("INSERT OR REPLACE INTO seeks (cid, line, dec, comp) VALUES (?, ?, ?, ?)"),
  dropSeeks: db.prepare("DELETE FROM seeks WHERE cid = ?"),
  dictionary: null,
}));

const DICTIONARY_KEY = "textDictionary";

/** The index's text dictionary as stored, or null while it has none. */
export function readDictionary(db: Db): Buffer | null {
  const stored = readMeta(db, DICTIONARY_KEY);
  return stored === null ? null : Buffer.from(stored, "base64");
}

/** The dictionary for reading blocks: kept once found, as an index's dictionary never changes once committed. */
function dictionaryOf(db: Db): Buffer | null {
  const s = statementsOf(db);
  // Kept only outside a transaction: one rolled back may have written it.
  if (!s.dictionary) {
    const found = readDictionary(db);
    if (db.inTransaction) return found;
    s.dictionary = found;
  }
  return s.dictionary;
}

/** Stores the index's text dictionary (once, the first time a build makes it; read back once committed). */
export function storeDictionary(db: Db, dictionary: Buffer): void {
  writeMeta(db, DICTIONARY_KEY, dictionary.toString("base64"));
}

/** Stores packed blocks whose first entry (offset 0) has the rowid `first`; entries past `end` are not kept. */
export function writeBlocks(db: Db, first: number, blocks: PackedBlock[], end: number): void {
  const { insert } = statementsOf(db);
  for (const b of blocks) if (first + b.offset < end) insert.run(first + b.offset, b.data);
}

/** Stores a chat's seek points for its log-backed entries (`log-texts.ts`). */
export function writeSeeks(db: Db, cid: number, seeks: SeekPoint[]): void {
  const { insertSeek } = statementsOf(db);
  for (const p of seeks) insertSeek.run(cid, p.line, p.dec, p.comp);
}

const utf8 = new TextDecoder();

/** The text of each entry asked for (rowids); a rowid with no stored text is left out. */
export function readTexts(db: Db, rowids: number[]): Map<number, string> {
  const { block } = statementsOf(db);
  const out = new Map<number, string>();
  // In order, so the hits of one block are read from it with one lookup and one inflate.
  let first = -1;
  let texts: string[] = [];
  for (const rid of [...rowids].sort((a, b) => a - b)) {
    if (!(rid >= first && rid - first < texts.length)) {
      const row = block.get(rid) as { id: number; data: Buffer } | undefined;
      // A block of another chat (this one's text was dropped) is not this entry's.
      if (!row || Math.floor(row.id / ENTRY_SPAN) !== Math.floor(rid / ENTRY_SPAN)) continue;
      first = row.id;
      texts = JSON.parse(utf8.decode(decodeBlock(row.data, () => dictionaryOf(db)))) as string[];
    }
    const text = texts[rid - first];
    if (text !== undefined) out.set(rid, text);
  }
  return out;
}

/** Drops every entry of a chat: its rows, their FTS postings (the `lines_ad` trigger), text blocks and seek points. */
export function deleteEntries(db: Db, cid: number): void {
  const lo = cid * ENTRY_SPAN;
  const s = statementsOf(db);
  s.dropLines.run(lo, lo + ENTRY_SPAN);
  s.dropTexts.run(lo, lo + ENTRY_SPAN);
  s.dropSeeks.run(cid);
}
