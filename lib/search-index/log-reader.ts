import { type Generation, hashLogTail, type SeekPoint, streamLog } from "../chats";
import type { DetailsRebuild, RebuiltLog } from "../chats/details";
import type { LogHead } from "../chats/head";
// The line splitter is the reader's own, so line numbers here are the inspector's.
import { LineSplitter } from "../chats/lines";
import type { LogEnd, OpenLog } from "../chats/log-stream";
import { BULK_BATCH_OUTPUT } from "../chats/log-stream";
import { isOdaError } from "../errors";
import type { Described } from "./chat-describe";

import { roleCode, timeCode } from "./entry-codec";
import { extractText } from "./extract";
import { isLogBacked, keepsSeek, lineText } from "./log-texts";
import { type BatchMessage, problemCount, type ReadMessage, type ReadTask } from "./read-messages";
import type { TextCodec } from "./text-codec";
import { packTexts } from "./texts";
import { UsageBatch } from "./usage";

/**
 * The current log as the chat's reader opened it: every read of it (the head, the whole log, the tail hashes)
 * goes through this one descriptor, and the head's decode of the first frame is not made again.
 */
export interface OpenedLog {
  path: string;
  open: OpenLog;
  /** The head as `summarizeChat` read and decoded it through `open` (`null` until then, or when it did not). */
  head: LogHead | null;
}

/** Entries collected before a batch is handed over, and their text in UTF-16 units at most. */
const FLUSH_ROWS = 5000;
export const FLUSH_CHARS = 4_000_000;

/**
 * Reads a chat's log from `from` (or its start), handing its entries over
 * batch by batch. Given a `DetailsRebuild`, it also feeds it every line it
 * parses: the chat's details are rebuilt in the same pass (`readChat` reads a
 * log without a usable checkpoint so, before the chat is described). Until
 * the chat is described (`d`), no batch can be handed over: past one batch's
 * worth of entries it stops collecting text (`hasText` turns false) and the
 * text is read again afterwards, as a log of any size must stay in bounded memory.
 */
export class LogReader {
  /** The chat as described: set before any batch is handed over. */
  d: Described | null = null;
  private collecting: boolean;
  private linesRead = 0;
  private point: SeekPoint | null;
  private indexedTo: number;
  private badLines: number;
  private textError: string | null = null;
  private lines: number[] = [];
  private roles: (number | string)[] = [];
  private ts: (number | string | null)[] = [];
  private texts: string[] = [];
  /** Per entry: true when its text is not stored but read back from the log (`log-texts.ts`). */
  private backed: boolean[] = [];
  /** Seek points kept for the log-backed entries, handed over with the batch they came in. */
  private seeks: SeekPoint[] = [];
  private lastSeek: SeekPoint | null = null;
  private chars = 0;
  private usage = new UsageBatch();
  /** Decompressed bytes of the log's complete lines (the storage report's decompressed size). */
  private decEnd: number;
  private splitter: LineSplitter;
  private end: LogEnd | null = null;
  private readPath: string | null = null;

  constructor(
    private task: ReadTask,
    private from: SeekPoint | undefined,
    private post: (m: ReadMessage) => Promise<void>,
    private codec: TextCodec,
    private rebuild: DetailsRebuild | null = null,
    wantText = true,
    private log: OpenedLog | null = null,
  ) {
    const row = from ? task.row : null;
    this.collecting = wantText;
    this.point = from ?? null;
    this.indexedTo = row?.text_lines ?? 0;
    this.badLines = row?.bad_lines ?? 0;
    this.decEnd = from?.dec ?? 0;
    this.splitter = new LineSplitter(from?.line ?? 0, from?.dec ?? 0);
  }

  /** True when this reader holds the whole text of `current` (read from its start, nothing dropped). */
  hasText(current: Generation | null): boolean {
    return this.collecting && !this.from && !!current && this.readPath === current.path;
  }

  /** What the details rebuild found, once `read` is done. */
  rebuilt(path: string): RebuiltLog {
    if (!this.rebuild) throw new Error("This log reader rebuilds no details.");
    return this.rebuild.result(path, this.splitter, this.end, this.textError);
  }

  /** Stops collecting text: the entries so far are dropped and read again once the chat is described. */
  private dropText(): void {
    this.collecting = false;
    this.lines = [];
    this.roles = [];
    this.ts = [];
    this.texts = [];
    this.backed = [];
    this.seeks = [];
    this.chars = 0;
  }

  /** Keeps `point` as a seek point when it is far enough into the log and from the last one kept. */
  private seekAt(point: SeekPoint): void {
    if (!this.collecting || !keepsSeek(point, this.lastSeek)) return;
    this.seeks.push(point);
    this.lastSeek = point;
  }

  async read(current: Generation): Promise<void> {
    this.readPath = current.path;
    const skipTo = this.indexedTo;
    const splitter = this.splitter;
    if (this.from) this.seekAt(this.from);
    const onLine = (n: number, offset: number, bytes: Buffer, length: number) => {
      this.linesRead++;
      this.decEnd = splitter.lineStart;
      if (n <= skipTo) return true;
      const { raw, json } = lineText(bytes, length);
      this.rebuild?.add(n, offset, bytes, length, json);
      if (!this.collecting) return true;
      if (!json && length === bytes.length) this.badLines++;
      this.usage.add(json, current.format);
      const backed = isLogBacked(offset, length, this.lastSeek);
      for (const entry of extractText(json, raw)) {
        this.lines.push(n);
        // Coded here, off the writer's thread.
        this.roles.push(roleCode(entry.role));
        this.ts.push(timeCode(entry.ts));
        this.texts.push(entry.text);
        this.backed.push(backed);
        this.chars += entry.text.length;
      }
      this.indexedTo = n;
      return true;
    };
    try {
      // Batches of about 1 MiB: each starts a seek point, so a log-backed entry is read back from near it.
      const opened = this.log?.path === current.path ? this.log : null;
      const options = {
        compressed: current.compressed,
        from: this.from,
        batchOutput: BULK_BATCH_OUTPUT,
        open: opened?.open,
        first: opened?.head?.frame,
      };
      for await (const item of streamLog(current.path, options)) {
        if (item.type === "end") {
          this.end = item;
          if (!item.cut && splitter.atLineStart)
            this.point = {
              line: splitter.lines,
              dec: splitter.offset,
              comp: current.compressed ? item.completeEnd : splitter.offset,
            };
          break;
        }
        if (current.compressed && item.comp !== null && splitter.atLineStart) {
          this.point = { line: splitter.lines, dec: item.dec, comp: item.comp };
          this.seekAt(this.point);
        }
        splitter.push(item.data, onLine);
        if (!current.compressed && splitter.lines > 0) {
          this.point = { line: splitter.lines, dec: splitter.lineStart, comp: splitter.lineStart };
          this.seekAt(this.point);
        }
        const full = this.lines.length >= FLUSH_ROWS || this.chars >= FLUSH_CHARS;
        if (full && !this.d) this.dropText();
        else if (full && this.point && this.point.line <= this.indexedTo) await this.flush(false);
      }
    } catch (error) {
      // A log that cannot be decoded past some point keeps what was read; anything else is not ours to hide.
      if (!isOdaError(error)) throw error;
      this.textError = error.message;
    }
  }

  /** The row's text state: until the last batch it says "indexed up to the seek point", so a stopped refresh resumes there. */
  private textState(d: Described, final: boolean) {
    const { current, st } = d;
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
      seek_sha: current && point ? this.hashTail(current.path, point.comp) : null,
      text_error: this.textError,
      bad_lines: this.badLines,
    };
  }

  /** sha256 of the log's bytes before `end`: from the head already read, or through the open descriptor. */
  private hashTail(path: string, end: number): string {
    const head = this.log?.path === path ? this.log.head : null;
    return head ? head.hashTail(end) : hashLogTail(path, end);
  }

  /** Hands over the pending entries, their text compressed, with the row as it stands after them. */
  async flush(final: boolean): Promise<void> {
    const d = this.d;
    if (!d) throw new Error("A chat's entries were handed over before it was described.");
    const { summary } = d;
    const message: BatchMessage = {
      kind: "batch",
      mode: this.from ? "append" : "full",
      fields: {
        ...d.base,
        ...this.textState(d, final),
        fingerprint: final ? this.task.seen.fingerprint : "",
        problems: problemCount(summary.problems.length, summary.tail === null, this.textError, this.badLines),
      },
      lines: this.lines,
      roles: this.roles,
      ts: this.ts,
      texts: this.texts,
      blocks: packTexts(
        this.texts.map((text, i) => (this.backed[i] ? null : text)),
        this.codec.dictionary,
      ),
      seeks: this.seeks,
      usage: this.usage.take(),
      linesRead: this.linesRead,
    };
    this.lines = [];
    this.roles = [];
    this.ts = [];
    this.texts = [];
    this.backed = [];
    this.seeks = [];
    this.chars = 0;
    this.linesRead = 0;
    await this.post(message);
  }
}
