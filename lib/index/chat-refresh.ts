import { type Stats, statSync } from "node:fs";
import { isOdaError } from "../errors";
import { type ChatSummary, hashLogTail, type SeekPoint, streamLog, summarizeChat } from "../sessions";
// The line splitter is the reader's own, so line numbers here are the inspector's.
import { LineSplitter, parseObject } from "../sessions/lines";
import { type Db, ENTRY_SPAN } from "./db";
import { extractText } from "./extract";
import type { IndexedChat, SeenChat } from "./scan";
import { chatStatements } from "./statements";
import { deleteEntries, packTexts, writeBlocks } from "./texts";
import { chatFacts, deleteUsage, UsageBatch } from "./usage";

/**
 * Re-reading one chat, in stages: describe it (its summary and current log),
 * refresh only the summary when the log is unchanged, find where to resume
 * when the log only grew, then read the new lines and write them in batches.
 */

/** Entries collected before a batch is written. */
const FLUSH_ROWS = 5000;

/** Rows of text ready to insert. */
interface Pending {
  line: number;
  role: string;
  ts: string | null;
  text: string;
}

/** What a chat's re-read did. */
export interface ChatRefresh {
  mode: "append" | "full" | "summary";
  lines: number;
  /** Entries written. */
  entries: number;
}

/** Thrown inside a chat's first write when another process indexed the chat meanwhile. */
export class ChatMovedOn extends Error {}

type Generation = ChatSummary["generations"][number];

/** The chat as it is now: its summary, current log and the row fields they give. */
interface Described {
  summary: ChatSummary;
  current: Generation | null;
  st: Stats | null;
  base: Record<string, unknown>;
}

function problemCount(summary: ChatSummary, textError: string | null, badLines: number): number {
  return summary.problems.length + (textError ? 1 : 0) + (summary.tail === null ? badLines : 0);
}

async function describeChat(seen: SeenChat, compress: boolean): Promise<Described> {
  const summary = await summarizeChat(seen.loc, { compress });
  const current = summary.generations.find((g) => g.current) ?? null;
  const st = current ? statSync(current.path) : null;
  const base = {
    id: summary.id,
    folder: summary.folder,
    cwd: summary.cwd,
    title: summary.title,
    first_activity: summary.firstActivity,
    last_activity: summary.lastActivity,
    messages: summary.messages,
    source: summary.cached ? "checkpoint" : "log",
    summary: JSON.stringify(summary),
    indexed_at: new Date().toISOString(),
    ...chatFacts(summary, seen.loc.dir),
  };
  return { summary, current, st, base };
}

/** True when the indexed log is the same file, same size and time: only the checkpoint or the lock changed. */
function isSameLog(row: IndexedChat | null, { current, st }: Described): row is IndexedChat {
  return (
    !!row &&
    !!current &&
    !!st &&
    row.log_name === current.name &&
    row.log_ino === st.ino &&
    row.log_size === st.size &&
    row.log_mtime === st.mtimeMs
  );
}

function refreshSummary(db: Db, seen: SeenChat, row: IndexedChat, d: Described): void {
  const stored = db.prepare("SELECT text_error, bad_lines FROM chats WHERE cid = ?").get(row.cid) as {
    text_error: string | null;
    bad_lines: number;
  };
  chatStatements(db).summaryOnly.run({
    ...d.base,
    fingerprint: seen.fingerprint,
    problems: problemCount(d.summary, stored.text_error, stored.bad_lines),
    cid: row.cid,
  });
}

/** Where to resume reading a log that only grew (same file, the bytes before the seek point unchanged). */
function resumePoint(row: IndexedChat | null, { current, st }: Described): SeekPoint | undefined {
  const grown =
    row &&
    current &&
    st &&
    row.log_name === current.name &&
    row.log_ino === st.ino &&
    row.log_size !== null &&
    st.size > row.log_size &&
    row.seek_comp !== null &&
    row.seek_sha !== null &&
    hashLogTail(current.path, row.seek_comp) === row.seek_sha;
  return grown && row.seek_line !== null && row.seek_dec !== null && row.seek_comp !== null
    ? { line: row.seek_line, dec: row.seek_dec, comp: row.seek_comp }
    : undefined;
}

/** Re-reads one chat: its summary, and its text from the start or from where the index stopped. */
export async function refreshChat(
  db: Db,
  seen: SeenChat,
  row: IndexedChat | null,
  compress: boolean,
): Promise<ChatRefresh> {
  const d = await describeChat(seen, compress);
  if (isSameLog(row, d)) {
    refreshSummary(db, seen, row, d);
    return { mode: "summary", lines: 0, entries: 0 };
  }
  const from = resumePoint(row, d);
  const reader = new ChatReader(db, seen, from ? row : null, d, from);
  await reader.read();
  await reader.flush(true);
  return { mode: from ? "append" : "full", lines: reader.linesRead, entries: reader.entries };
}

/** Reads a chat's log from `from` (or its start) and writes its entries batch by batch. */
class ChatReader {
  linesRead = 0;
  entries = 0;
  private first = true;
  private point: SeekPoint | null;
  private indexedTo: number;
  private badLines: number;
  private textError: string | null = null;
  private pending: Pending[] = [];
  private usage = new UsageBatch();
  /** Decompressed bytes of the log's complete lines (the storage report's decompressed size). */
  private decEnd: number;

  constructor(
    private db: Db,
    private seen: SeenChat,
    private row: IndexedChat | null,
    private d: Described,
    private from: SeekPoint | undefined,
  ) {
    this.point = from ?? null;
    this.indexedTo = from && row ? row.text_lines : 0;
    this.badLines = from && row ? row.bad_lines : 0;
    this.decEnd = from?.dec ?? 0;
  }

  async read(): Promise<void> {
    const current = this.d.current;
    if (!current) return;
    const skipTo = this.indexedTo;
    const splitter = new LineSplitter(this.from?.line ?? 0, this.from?.dec ?? 0);
    const onLine = (n: number, _offset: number, bytes: Buffer, length: number) => {
      this.linesRead++;
      this.decEnd = splitter.lineStart;
      if (n <= skipTo) return true;
      const raw = bytes.toString("utf8");
      // A line over the line limit comes as its head: its text is searchable, it is not parsed.
      const json = length > bytes.length ? null : parseObject(raw);
      if (!json && length === bytes.length) this.badLines++;
      this.usage.add(json, current.format);
      for (const entry of extractText(json, raw)) this.pending.push({ line: n, ...entry });
      this.indexedTo = n;
      return true;
    };
    try {
      for await (const item of streamLog(current.path, { compressed: current.compressed, from: this.from })) {
        if (item.type === "end") {
          if (!item.cut && splitter.atLineStart)
            this.point = {
              line: splitter.lines,
              dec: splitter.offset,
              comp: current.compressed ? item.completeEnd : splitter.offset,
            };
          break;
        }
        if (current.compressed && item.comp !== null && splitter.atLineStart)
          this.point = { line: splitter.lines, dec: item.dec, comp: item.comp };
        splitter.push(item.data, onLine);
        if (!current.compressed && splitter.lines > 0)
          this.point = { line: splitter.lines, dec: splitter.lineStart, comp: splitter.lineStart };
        if (this.pending.length >= FLUSH_ROWS && this.point && this.point.line <= this.indexedTo)
          await this.flush(false);
      }
    } catch (error) {
      // A log that cannot be decoded past some point keeps what was read; anything else (the index) is not ours to hide.
      if (!isOdaError(error)) throw error;
      this.textError = error.message;
    }
  }

  /** The row's text state: until the last batch it says "indexed up to the seek point", so a stopped refresh resumes there. */
  private textState(final: boolean) {
    const { current, st } = this.d;
    const point = this.point;
    return {
      log_name: current?.name ?? null,
      log_ino: st?.ino ?? null,
      log_size: final ? (st?.size ?? null) : (point?.comp ?? 0),
      log_mtime: final ? (st?.mtimeMs ?? null) : 0,
      text_lines: this.indexedTo,
      seek_line: point?.line ?? null,
      seek_dec: point?.dec ?? null,
      seek_comp: point?.comp ?? null,
      log_dec: current ? this.decEnd : null,
      seek_sha: current && point ? hashLogTail(current.path, point.comp) : null,
      text_error: this.textError,
      bad_lines: this.badLines,
    };
  }

  /** Writes the pending entries (their text compressed first, off this thread) with the row and usage, in one transaction. */
  async flush(final: boolean): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const blocks = await packTexts(batch.map((p) => p.text));
    const s = chatStatements(this.db);
    this.db.transaction(() => {
      if (this.first && this.from && this.row) {
        // Another process (the CLI beside the server) may have indexed this chat since it was read: leave it to it.
        const now = this.db.prepare("SELECT indexed_at FROM chats WHERE cid = ?").pluck().get(this.row.cid);
        if (now !== this.row.indexed_at) throw new ChatMovedOn();
      }
      const { cid } = s.upsert.get({
        ...this.d.base,
        ...this.textState(final),
        fingerprint: final ? this.seen.fingerprint : "",
        problems: problemCount(this.d.summary, this.textError, this.badLines),
      }) as { cid: number };
      const lo = cid * ENTRY_SPAN;
      if (this.first && !this.from) {
        deleteEntries(this.db, cid);
        deleteUsage(this.db, cid);
      }
      this.first = false;
      const start = ((s.lastEntry.get(lo, lo + ENTRY_SPAN) as { id: number | null }).id ?? lo - 1) + 1;
      // A chat with more entries than its span keeps the first ones searchable (16 million entries).
      const end = lo + ENTRY_SPAN;
      let next = start;
      for (const p of batch) {
        if (next >= end) break;
        s.insertLine.run(next, p.line, p.role, p.ts);
        s.insertFts.run(next++, p.text);
      }
      this.entries += next - start;
      writeBlocks(this.db, start, blocks, end);
      this.usage.write(this.db, cid);
    })();
  }
}
