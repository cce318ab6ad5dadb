import { compress } from "@mongodb-js/zstd";
import type Database from "better-sqlite3";
import { decompress } from "fzstd";
import { type Db, ENTRY_SPAN } from "./db";

/**
 * The entries' text, which the FTS5 table does not keep: consecutive entries
 * of a chat are joined into blocks of about `BLOCK_CHARS` characters and
 * zstd-compressed (on libuv's threads, while the refresh reads on), one
 * `texts` row per block keyed by its first entry's rowid. A search reads back
 * only the blocks of the hits it shows.
 */

/** Characters of text per block: large enough to compress well, small enough to decode one hit's block at once. */
const BLOCK_CHARS = 16_384;
const LEVEL = 3;

/** A compressed block and the position of its first entry among the texts given. */
export interface PackedBlock {
  offset: number;
  data: Buffer;
}

/** Splits `texts` into blocks and compresses them (concurrently, off this thread). */
export async function packTexts(texts: string[]): Promise<PackedBlock[]> {
  const bounds: [number, number][] = [];
  let start = 0;
  let size = 0;
  for (let i = 0; i < texts.length; i++) {
    size += (texts[i] as string).length;
    if (size >= BLOCK_CHARS || i === texts.length - 1) {
      bounds.push([start, i + 1]);
      start = i + 1;
      size = 0;
    }
  }
  return Promise.all(
    bounds.map(async ([from, to]) => ({
      offset: from,
      data: await compress(Buffer.from(JSON.stringify(texts.slice(from, to))), LEVEL),
    })),
  );
}

const statements = new WeakMap<Db, { insert: Database.Statement; block: Database.Statement }>();

function statementsOf(db: Db) {
  let s = statements.get(db);
  if (!s) {
    s = {
      insert: db.prepare("INSERT INTO texts (id, data) VALUES (?, ?)"),
      block: db.prepare("SELECT id, data FROM texts WHERE id <= CAST(? AS INTEGER) ORDER BY id DESC LIMIT 1"),
    };
    statements.set(db, s);
  }
  return s;
}

/** Stores packed blocks whose first entry (offset 0) has the rowid `first`; entries past `end` are not kept. */
export function writeBlocks(db: Db, first: number, blocks: PackedBlock[], end: number): void {
  const { insert } = statementsOf(db);
  for (const b of blocks) if (first + b.offset < end) insert.run(first + b.offset, b.data);
}

const utf8 = new TextDecoder();

/** The text of each entry asked for (rowids); a rowid with no stored text is left out. */
export function readTexts(db: Db, rowids: number[]): Map<number, string> {
  const { block } = statementsOf(db);
  const decoded = new Map<number, string[]>();
  const out = new Map<number, string>();
  for (const rid of rowids) {
    const row = block.get(rid) as { id: number; data: Buffer } | undefined;
    // A block of another chat (this one's text was dropped) is not this entry's.
    if (!row || Math.floor(row.id / ENTRY_SPAN) !== Math.floor(rid / ENTRY_SPAN)) continue;
    let texts = decoded.get(row.id);
    if (!texts) {
      texts = JSON.parse(utf8.decode(decompress(row.data))) as string[];
      decoded.set(row.id, texts);
    }
    const text = texts[rid - row.id];
    if (text !== undefined) out.set(rid, text);
  }
  return out;
}

/** Drops every entry of a chat: its rows, their FTS postings (the `lines_ad` trigger) and its text blocks. */
export function deleteEntries(db: Db, cid: number): void {
  const lo = cid * ENTRY_SPAN;
  db.prepare("DELETE FROM lines WHERE id >= ? AND id < ?").run(lo, lo + ENTRY_SPAN);
  db.prepare("DELETE FROM texts WHERE id >= ? AND id < ?").run(lo, lo + ENTRY_SPAN);
}
