import { isOdaError } from "../errors";
import { hashLogTail, type SeekPoint, streamLog } from "../sessions";
// The line splitter is the reader's own, so line numbers here are the inspector's.
import { LineSplitter, parseObject } from "../sessions/lines";
import { type Described, describeChat, isSameLog, resumePoint } from "./chat-describe";
import { extractText } from "./extract";
import { fingerprintChat, type IndexedChat, type SeenChat } from "./scan";
import { type PackedBlock, packTexts } from "./texts";
import { UsageBatch, type UsageRows } from "./usage";

/**
 * Reading one changed chat for the index, without the index: describe it (its
 * summary and current log), then, unless only its summary changed, read its
 * log from the start or from where the index stopped and hand over its
 * entries in batches, each with their text already compressed. It runs on a
 * reader thread (`read-pool.ts`) while the refresh's thread only writes, so
 * everything here is plain data that crosses threads.
 */

/** What the refresh knows of a chat to re-read. */
export interface ReadTask {
  seen: SeenChat;
  row: IndexedChat | null;
  compress: boolean;
  /** The index's log folder (summaries are kept relative to it). */
  logDir: string;
}

/** Only the summary changed (same log file, same size and time). */
export interface SummaryMessage {
  kind: "summary";
  fields: Record<string, unknown>;
  /** The summary's own problems, and whether its tail is unknown (then bad lines count as problems). */
  summaryProblems: number;
  tailUnknown: boolean;
}

/** A batch of entries, with the chat's row as it stands after them. */
export interface BatchMessage {
  kind: "batch";
  mode: "append" | "full";
  /** Every column the row upsert takes. */
  fields: Record<string, unknown>;
  lines: number[];
  roles: string[];
  ts: (string | null)[];
  texts: string[];
  blocks: PackedBlock[];
  usage: UsageRows;
  /** Log lines read since the previous batch. */
  linesRead: number;
}

export type ReadMessage = SummaryMessage | BatchMessage;

/** Entries collected before a batch is handed over, and their text in UTF-16 units at most. */
const FLUSH_ROWS = 5000;
const FLUSH_CHARS = 4_000_000;

/** A chat's problem count: its summary's, a text error, and bad lines when the tail was not judged. */
export function problemCount(summaryProblems: number, tailUnknown: boolean, textError: unknown, badLines: number) {
  return summaryProblems + (textError ? 1 : 0) + (tailUnknown ? badLines : 0);
}

/** Reads one chat, handing each message to `post` (awaited: the writer's pace bounds what is held). */
export async function readChat(given: ReadTask, post: (m: ReadMessage) => Promise<void>): Promise<void> {
  // Taken before reading: a file changing meanwhile makes the next refresh read the chat again.
  const fingerprint = given.seen.fingerprint ?? fingerprintChat(given.seen.loc.dir);
  const task = { ...given, seen: { ...given.seen, fingerprint } };
  const d = await describeChat(task);
  if (isSameLog(task.row, d)) {
    await post({
      kind: "summary",
      fields: { ...d.base, fingerprint: task.seen.fingerprint },
      summaryProblems: d.summary.problems.length,
      tailUnknown: d.summary.tail === null,
    });
    return;
  }
  const from = resumePoint(task.row, d);
  const reader = new LogReader(task, d, from, post);
  await reader.read();
  await reader.flush(true);
}

/** Reads a chat's log from `from` (or its start), handing its entries over batch by batch. */
class LogReader {
  private linesRead = 0;
  private point: SeekPoint | null;
  private indexedTo: number;
  private badLines: number;
  private textError: string | null = null;
  private lines: number[] = [];
  private roles: string[] = [];
  private ts: (string | null)[] = [];
  private texts: string[] = [];
  private chars = 0;
  private usage = new UsageBatch();
  /** Decompressed bytes of the log's complete lines (the storage report's decompressed size). */
  private decEnd: number;

  constructor(
    private task: ReadTask,
    private d: Described,
    private from: SeekPoint | undefined,
    private post: (m: ReadMessage) => Promise<void>,
  ) {
    const row = from ? task.row : null;
    this.point = from ?? null;
    this.indexedTo = row?.text_lines ?? 0;
    this.badLines = row?.bad_lines ?? 0;
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
      for (const entry of extractText(json, raw)) {
        this.lines.push(n);
        this.roles.push(entry.role);
        this.ts.push(entry.ts);
        this.texts.push(entry.text);
        this.chars += entry.text.length;
      }
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
        const full = this.lines.length >= FLUSH_ROWS || this.chars >= FLUSH_CHARS;
        if (full && this.point && this.point.line <= this.indexedTo) await this.flush(false);
      }
    } catch (error) {
      // A log that cannot be decoded past some point keeps what was read; anything else is not ours to hide.
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

  /** Hands over the pending entries, their text compressed, with the row as it stands after them. */
  async flush(final: boolean): Promise<void> {
    const { summary } = this.d;
    const message: BatchMessage = {
      kind: "batch",
      mode: this.from ? "append" : "full",
      fields: {
        ...this.d.base,
        ...this.textState(final),
        fingerprint: final ? this.task.seen.fingerprint : "",
        problems: problemCount(summary.problems.length, summary.tail === null, this.textError, this.badLines),
      },
      lines: this.lines,
      roles: this.roles,
      ts: this.ts,
      texts: this.texts,
      blocks: packTexts(this.texts),
      usage: this.usage.take(),
      linesRead: this.linesRead,
    };
    this.lines = [];
    this.roles = [];
    this.ts = [];
    this.texts = [];
    this.chars = 0;
    this.linesRead = 0;
    await this.post(message);
  }
}
