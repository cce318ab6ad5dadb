import { join } from "node:path";
import type Database from "better-sqlite3";
import type { SeekPoint } from "../chats";
import { LineSplitter, parseObject } from "../chats/lines";
import { streamLog } from "../chats/log-stream";
import { isOdaError } from "../errors";
import { type Db, ENTRY_SPAN, readMeta } from "./db";
import { extractText } from "./extract";
import { perConnection } from "./per-connection";

/**
 * Entries whose text the index does not keep: past the first few MiB of a
 * log, an entry's text is read back from the log itself when a search shows
 * it, from a seek point the index kept (`seeks`: a frame boundary at a line
 * start, at most `REACH` before the entry's line), decoded asynchronously
 * like any log the dashboard reads (no event loop is held). The bulk of a huge log's
 * text is then stored once, in the log, instead of a second time,
 * compressed, in the index; the FTS table still has every word. Small chats
 * and the start of every log keep their text in blocks (`texts.ts`): reading
 * a log for each of many small hits would cost more than it saves.
 *
 * The text read back is the one indexed: the same line splitter and the same
 * extraction (`lineText`, `extractText`) over the same bytes, so the snippets
 * are the ones stored text gave. A log that is not the indexed file any more
 * (another inode, shorter than indexed), is not a regular file, or cannot be
 * decoded there gives no text: the hit is left out until the next refresh
 * reads the log again.
 */

const MiB = 1024 * 1024;
/** Entries whose line starts this far into the log or further may be log-backed. */
const LOG_TEXT_FROM = 4 * MiB;
/** A log-backed entry's line starts at most this far after its seek point. */
const REACH = 2 * MiB;
/** Lines longer than this keep their text stored (reading one back would decode all of it). */
const MAX_BACKED_LINE = 256 * 1024;
/** Seek points are kept at least this far apart. */
const SEEK_SPACING = 512 * 1024;
/** Reading back stops after this many decoded bytes past the seek point, found or not. */
const READ_CAP = REACH + MAX_BACKED_LINE + MiB;
/** Decoded bytes each zstd batch aims at while reading back (small: only the lines near the seek point are wanted). */
const PIECE_OUTPUT = 256 * 1024;

/** A line's text and, unless it is over the line limit (its head only) or not an object, its JSON. */
export function lineText(bytes: Buffer, length: number): { raw: string; json: Record<string, unknown> | null } {
  const raw = bytes.toString("utf8");
  // A line over the line limit comes as its head: its text is searchable, it is not parsed.
  return { raw, json: length > bytes.length ? null : parseObject(raw) };
}

/** True when `point` is kept as a seek point, `last` being the one kept before it. */
export function keepsSeek(point: SeekPoint, last: SeekPoint | null): boolean {
  return point.dec >= LOG_TEXT_FROM - REACH && (!last || point.dec - last.dec >= SEEK_SPACING);
}

/** True when the entries of the line at `offset` (`length` bytes) are read back from the log, from `seek`. */
export function isLogBacked(offset: number, length: number, seek: SeekPoint | null): boolean {
  return (
    !!seek && offset >= LOG_TEXT_FROM && length <= MAX_BACKED_LINE && offset >= seek.dec && offset - seek.dec <= REACH
  );
}

interface ChatLog {
  folder: string;
  log_name: string | null;
  log_ino: number | null;
  log_size: number | null;
}

interface LogTextStatements {
  chat: Database.Statement;
  line: Database.Statement;
  seek: Database.Statement;
  logDir: string;
}

const statementsOf = perConnection<LogTextStatements>((db) => ({
  chat: db.prepare("SELECT folder, log_name, log_ino, log_size FROM chats WHERE cid = ?"),
  line: db.prepare("SELECT line FROM entries WHERE id = ?").pluck(),
  seek: db.prepare("SELECT line, dec, comp FROM seeks WHERE cid = ? AND line < ? ORDER BY line DESC LIMIT 1"),
  logDir: readMeta(db, "logDir") ?? "",
}));

/** A wanted entry: its rowid and its place among its line's entries. */
interface Wanted {
  rid: number;
  nth: number;
}

/** Lines to read back from one log, from one seek point: everything needed, read from the index beforehand. */
export interface LogRead {
  path: string;
  compressed: boolean;
  /** The indexed file's inode and size: another file in its place is not read. */
  ino: number;
  size: number;
  seek: SeekPoint;
  lines: Map<number, Wanted[]>;
}

/**
 * What reading back the given entries (rowids with no stored text) takes: for each chat, its log as indexed
 * and, for each seek point, the lines wanted from it. Only the index is read (within the caller's snapshot);
 * an entry with no seek point before its line is not log-backed and left out.
 */
export function planLogReads(db: Db, rowids: number[]): LogRead[] {
  const byChat = new Map<number, number[]>();
  for (const rid of rowids) {
    const cid = Math.floor(rid / ENTRY_SPAN);
    const list = byChat.get(cid);
    if (list) list.push(rid);
    else byChat.set(cid, [rid]);
  }
  const s = statementsOf(db);
  const reads: LogRead[] = [];
  for (const [cid, rids] of byChat) {
    const chat = s.chat.get(cid) as ChatLog | undefined;
    if (!chat?.log_name || chat.log_ino === null || chat.log_size === null) continue;
    const path = join(s.logDir, chat.folder, chat.log_name);
    const compressed = chat.log_name.endsWith(".zstd");
    const bySeek = new Map<number, LogRead>();
    for (const rid of rids) {
      const line = s.line.get(rid) as number | undefined;
      if (line === undefined) continue;
      // A line's entries are consecutive: its message text, then its tool text.
      let nth = 0;
      while ((rid - nth) % ENTRY_SPAN > 0 && s.line.get(rid - nth - 1) === line) nth++;
      const seek = s.seek.get(cid, line) as SeekPoint | undefined;
      if (!seek) continue;
      let read = bySeek.get(seek.line);
      if (!read) {
        read = { path, compressed, ino: chat.log_ino, size: chat.log_size, seek, lines: new Map() };
        bySeek.set(seek.line, read);
        reads.push(read);
      }
      const wanted = read.lines.get(line);
      if (wanted) wanted.push({ rid, nth });
      else read.lines.set(line, [{ rid, nth }]);
    }
  }
  return reads;
}

/** The text of each planned entry that can be read back; the others are left out. */
export async function readLogTexts(reads: LogRead[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const read of reads) {
    try {
      await readLines(read, out);
    } catch (error) {
      // Gone, not the indexed file any more (a link in its place is not followed), not a regular file, or
      // damaged where it was whole when indexed: the entries not read are left out until the next refresh
      // reads the log again.
      const systemError = typeof (error as NodeJS.ErrnoException).code === "string" && "syscall" in (error as object);
      if (!isOdaError(error) && !systemError) throw error;
    }
  }
  return out;
}

/** Reads one plan's lines, decoding from its seek point no more than `READ_CAP` bytes. */
async function readLines(read: LogRead, out: Map<number, string>): Promise<void> {
  const last = Math.max(...read.lines.keys());
  const splitter = new LineSplitter(read.seek.line, read.seek.dec);
  const onLine = (n: number, _offset: number, bytes: Buffer, length: number) => {
    const wanted = read.lines.get(n);
    if (wanted) {
      const { raw, json } = lineText(bytes, length);
      const entries = extractText(json, raw);
      for (const { rid, nth } of wanted) {
        const text = entries[nth]?.text;
        if (text !== undefined) out.set(rid, text);
      }
    }
    return n < last;
  };
  let decoded = 0;
  const options = {
    compressed: read.compressed,
    from: read.seek,
    expect: { ino: read.ino, size: read.size },
    batchOutput: PIECE_OUTPUT,
  };
  for await (const item of streamLog(read.path, options)) {
    if (item.type === "end") return;
    decoded += item.data.length;
    if (!splitter.push(item.data, onLine) || decoded > READ_CAP) return;
  }
}
