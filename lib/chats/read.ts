import { close, closeSync, createReadStream, read } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { OdaError } from "../errors";
import { type LockStatus, readLockStatus, removeStaleLock } from "../fs/lock";
import { type ChatSummary, type Generation, listGenerations, readChatFolder, summarizeChat } from "./chat";
import { asHeader, readFirstLine, type SessionHeader } from "./details";
import { locateChat, locateChatOrCopy } from "./folder";
import { indexLog, type LinesResult, type LogIndex, readLogLines } from "./line-index";
import { LineSplitter, type LogLine, parseLine } from "./lines";
import { openLogFile, type SeekPoint, streamLog } from "./log-stream";
import { LOCK_FILE } from "./names";
import { withRawLog } from "./problem";

/** Options shared by the chat readers. */
export interface ReadOptions {
  /** The folder's form (`sessions.compress`, default true). */
  compress?: boolean;
  /** A generation by file name (default: the current one). */
  generation?: string;
  /** One copy of a chat stored in two places (0-based, `locateCopies` order); refused as a duplicate without it. */
  copy?: number;
}

/** A chat in detail: its summary, header and generations (read whole: the tail is known). */
export interface ChatView extends ChatSummary {
  header: SessionHeader | null;
  /** The current log's line count and decompressed size. */
  lines: number | null;
  decompressedBytes: number | null;
}

/** Reads one chat in detail: summary with the log read whole, header, generations, tail. */
export async function readChat(logDir: string, id: string, options: ReadOptions = {}): Promise<ChatView> {
  const loc = locateChat(logDir, id);
  const summary = await summarizeChat(loc, { compress: options.compress ?? true, verify: true });
  const current = summary.generations.find((g) => g.current);
  if (!current) return { ...summary, header: null, lines: null, decompressedBytes: null };
  const index = await indexLog(current.path, current.compressed);
  return {
    ...summary,
    header: asHeader(await readFirstLine(current.path, current.compressed)),
    lines: index.lines,
    decompressedBytes: index.decodedBytes,
  };
}

/** The generation to read: by name, else the current one; refused when of the wrong form. */
export function pickGeneration(summary: Pick<ChatSummary, "generations" | "id">, name?: string): Generation {
  const gen = name ? summary.generations.find((g) => g.name === name) : summary.generations.find((g) => g.current);
  // No current log because the newest one must not be opened (a FIFO, a link leading outside): say so.
  const newest = summary.generations.at(-1);
  if (!gen && !name && newest?.blocked) throw new OdaError("unusable", newest.blocked.message);
  if (!gen)
    throw new OdaError(
      "not_found",
      name ? `Chat "${summary.id}" has no log named ${name}.` : `Chat "${summary.id}" has no usable log.`,
    );
  if (gen.refused) throw new OdaError("unusable", gen.refused);
  return gen;
}

/** The generation of a chat that `options` names (its current one by default). */
export function chatGeneration(logDir: string, id: string, options: ReadOptions): Generation {
  const loc = locateChatOrCopy(logDir, id, options.copy);
  return pickGeneration(
    { id, generations: listGenerations(loc.dir, readChatFolder(loc), options.compress ?? true) },
    options.generation,
  );
}

/** Lines `from`..`from+count-1` (1-based; `from` ≤ 0 counts from the end) of a chat's log. */
export async function readLines(
  logDir: string,
  id: string,
  options: ReadOptions & { from: number; count: number },
): Promise<LinesResult & { generation: string }> {
  const gen = chatGeneration(logDir, id, options);
  return { ...(await readLogLines(gen.path, gen.compressed, options.from, options.count)), generation: gen.name };
}

/** Builds (or extends after growth) the line index of a chat's log: line count and tail. */
export async function indexChat(logDir: string, id: string, options: ReadOptions = {}): Promise<LogIndex> {
  const gen = chatGeneration(logDir, id, options);
  return indexLog(gen.path, gen.compressed);
}

/** Calls `test` on each line from `from` on; returns the first line it accepts, or `null`. */
async function scanLines(
  logDir: string,
  id: string,
  from: number,
  options: ReadOptions,
  test: (line: LogLine) => boolean,
): Promise<LogLine | null> {
  const gen = chatGeneration(logDir, id, options);
  const index = await indexLog(gen.path, gen.compressed);
  let start = index.points[0];
  for (const p of index.points) if (p.line < from) start = p;
  return scanSpan(gen, start, from, Number.POSITIVE_INFINITY, test, true);
}

/**
 * The lines `from`..`until - 1` read from seek point `start`: the first line `test` accepts (`first`), or
 * the last one. Only the lines of the span are parsed; nothing but the match is kept.
 */
async function scanSpan(
  gen: Generation,
  start: SeekPoint | undefined,
  from: number,
  until: number,
  test: (line: LogLine) => boolean,
  first: boolean,
): Promise<LogLine | null> {
  const splitter = new LineSplitter(start?.line ?? 0, start?.dec ?? 0);
  let found: LogLine | null = null;
  let done = false;
  for await (const item of streamLog(gen.path, { compressed: gen.compressed, from: start })) {
    if (item.type === "end") break;
    const more = splitter.push(item.data, (n, offset, bytes, length) => {
      if (n >= until) {
        done = true;
        return false;
      }
      if (n < from) return true;
      const line = parseLine(n, offset, bytes, length);
      if (!test(line)) return true;
      found = line;
      return !first;
    });
    if (!more || done) break;
  }
  return found;
}

/**
 * The last line before `before` that `test` accepts, or `null`. The log is read backwards one seek span at
 * a time (the index's points are a frame apart), so a match near `before` costs a span, not the whole log.
 */
async function scanLinesBack(
  logDir: string,
  id: string,
  before: number,
  options: ReadOptions,
  test: (line: LogLine) => boolean,
): Promise<LogLine | null> {
  const gen = chatGeneration(logDir, id, options);
  const index = await indexLog(gen.path, gen.compressed);
  const starts = index.points.filter((p) => p.line + 1 < before);
  if (starts.length === 0) return scanSpan(gen, undefined, 1, before, test, false);
  let until = before;
  for (let i = starts.length - 1; i >= 0; i--) {
    const point = starts[i] as SeekPoint;
    const found = await scanSpan(gen, point, point.line + 1, until, test, false);
    if (found) return found;
    until = point.line + 1;
  }
  // Lines before the first seek point (an index always starts at line 0, so this is only for safety).
  return until > 1 ? scanSpan(gen, undefined, 1, until, test, false) : null;
}

/** What a shortcut of the log viewer looks for: a text, a problem line, a user message. */
export type LineSeek = { kind: "text"; query: string } | { kind: "problem" } | { kind: "user" };

/**
 * True when `line` is a problem: not a JSON object (or over the line limit), or a message holding a tool
 * result marked `is_error`.
 */
export function isProblemLine(line: LogLine): boolean {
  if (line.json === null) return true;
  const content = line.json.content;
  return (
    Array.isArray(content) &&
    content.some((p) => typeof p === "object" && p !== null && (p as { is_error?: unknown }).is_error === true)
  );
}

/**
 * True when `line` is something the user wrote: a format 4 user message with text (a message holding only
 * tool results is Oda's, not the user's), or a format 1 line of the user.
 */
export function isUserLine(line: LogLine): boolean {
  const json = line.json;
  if (json?.role !== "user") return false;
  if (json.type === undefined) return true;
  if (json.type !== "message") return false;
  const content = json.content;
  if (typeof content === "string") return true;
  return (
    Array.isArray(content) &&
    content.some((p) => typeof p === "object" && p !== null && (p as { type?: unknown }).type === "text")
  );
}

function seekTest(seek: LineSeek): (line: LogLine) => boolean {
  if (seek.kind === "problem") return isProblemLine;
  if (seek.kind === "user") return isUserLine;
  const needle = seek.query.toLowerCase();
  return (line) => line.raw.toLowerCase().includes(needle);
}

/**
 * The nearest line after (`forward`) or before `from` that matches `seek`, or `null`: the log viewer's
 * `n`/`N`, `e`/`E` and `[`/`]`. `from` itself is never the answer.
 */
export function seekLine(
  logDir: string,
  id: string,
  seek: LineSeek,
  options: ReadOptions & { from: number; forward: boolean },
): Promise<LogLine | null> {
  const test = seekTest(seek);
  return options.forward
    ? scanLines(logDir, id, options.from + 1, options, test)
    : scanLinesBack(logDir, id, options.from, options, test);
}

/** The first line at or after `from` whose text contains `query` (case-insensitive). */
export function findInChat(
  logDir: string,
  id: string,
  query: string,
  options: ReadOptions & { from?: number } = {},
): Promise<LogLine | null> {
  const needle = query.toLowerCase();
  return scanLines(logDir, id, options.from ?? 1, options, (line) => line.raw.toLowerCase().includes(needle));
}

/** The first line at or after `from` that is not a JSON object. */
export function nextErrorLine(
  logDir: string,
  id: string,
  options: ReadOptions & { from?: number } = {},
): Promise<LogLine | null> {
  return scanLines(logDir, id, options.from ?? 1, options, (line) => line.json === null);
}

/** A log's decompressed bytes as a Node stream (downloads); a plain log is streamed as it is. */
export function openLogStream(path: string, compressed = path.endsWith(".zstd")): Readable {
  // Opened here, not by the stream, so a FIFO or the like is refused before the stream exists.
  if (!compressed) return createReadStream("", { fd: openLogFile(path).fd });
  return Readable.from(
    (async function* () {
      for await (const item of streamLog(path, { compressed: true })) if (item.type === "data") yield item.data;
    })(),
  );
}

/** A chat's log opened for a download: the generation and its bytes, decompressed or as stored. */
export interface ChatDownload {
  generation: Generation;
  stream: Readable;
}

/**
 * Opens a chat's log for a download: `decompressed` (refused for a log of the
 * other form) or `raw` (the file as stored, any form). A log that must not be
 * opened (a link leading outside the log folder or looping, a FIFO) is refused
 * in both forms with its sentence, before any byte is read.
 */
export function openChatDownload(
  logDir: string,
  id: string,
  options: ReadOptions & { form: "raw" | "decompressed" },
): ChatDownload {
  const loc = locateChatOrCopy(logDir, id, options.copy);
  const generations = listGenerations(loc.dir, readChatFolder(loc), options.compress ?? true);
  const name = options.generation;
  const gen = name ? generations.find((g) => g.name === name) : generations.find((g) => g.current);
  const blocked = gen?.blocked ?? (name ? null : generations.at(-1)?.blocked);
  if (blocked) throw new OdaError("unusable", blocked.message);
  if (!gen) throw new OdaError("not_found", `Chat "${id}" has no log named ${name ?? "as its current state"}.`);
  if (options.form === "decompressed") {
    if (gen.refused) throw new OdaError("unusable", gen.refused);
    return { generation: gen, stream: openLogStream(gen.path, gen.compressed) };
  }
  // Sent up to the size the open saw, which the Content-Length promises (a growing log keeps its later bytes).
  const { fd, size } = openLogFile(gen.path);
  const generation = { ...gen, bytes: size };
  if (!size) {
    closeSync(fd);
    return { generation, stream: Readable.from([]) };
  }
  return { generation, stream: streamExactly(fd, size, gen.path) };
}

const RAW_PIECE = 1024 * 1024;

/**
 * The first `size` bytes of an open file as a stream that fails when the file ends first (truncated while
 * it was sent): `createReadStream({ end })` ends early without an error, so a download that promised
 * `size` bytes ended short and looked complete (issue 24). Every byte comes through this descriptor, so a
 * log swapped by rename meanwhile is still the file the download began with. Closes `fd` at its end.
 */
export function streamExactly(fd: number, size: number, path: string): Readable {
  let at = 0;
  return new Readable({
    highWaterMark: RAW_PIECE,
    read() {
      const want = Math.min(RAW_PIECE, size - at);
      if (want <= 0) {
        this.push(null);
        return;
      }
      const buf = Buffer.allocUnsafe(want);
      read(fd, buf, 0, want, at, (error, got) => {
        if (error) return this.destroy(error);
        if (got === 0) {
          const sentence = `${path} became shorter while it was sent: it ended at byte ${at} of the ${size} bytes the download began with.`;
          return this.destroy(new OdaError("conflict", withRawLog(sentence, path)));
        }
        at += got;
        this.push(got === want ? buf : buf.subarray(0, got));
      });
    },
    destroy(error, done) {
      close(fd, () => done(error));
    },
  });
}

/** A chat's lock file, unless it is a link leading outside the log folder or not a regular file (then unknown). */
function lockOf(logDir: string, id: string, copy?: number): { path: string; status: LockStatus } {
  const loc = locateChatOrCopy(logDir, id, copy);
  const path = join(loc.dir, LOCK_FILE);
  const blocked = readChatFolder(loc).blocked.get(LOCK_FILE);
  return { path, status: blocked ? { state: "unknown", reason: blocked.message } : readLockStatus(path) };
}

/** The lock of a chat. */
export function readChatLock(logDir: string, id: string, copy?: number): LockStatus {
  return lockOf(logDir, id, copy).status;
}

/**
 * Removes a chat's `session.lock` after a person confirmed it, only when it is
 * provably stale and still names `expectPid`; refuses otherwise. This is the
 * only write the dashboard makes inside a chat folder.
 */
export function freeStaleLock(logDir: string, id: string, options: { expectPid: number }): LockStatus {
  const { path, status } = lockOf(logDir, id);
  if (status.state === "none") throw new OdaError("not_found", `Chat "${id}" has no session.lock.`);
  if (status.pid !== options.expectPid) {
    throw new OdaError(
      "conflict",
      `The session.lock of chat "${id}" no longer names process ${options.expectPid}; nothing was removed.`,
    );
  }
  if (status.state !== "stale") {
    throw new OdaError(
      "refused",
      `The session.lock of chat "${id}" is not provably stale (${status.reason}); nothing was removed.`,
    );
  }
  const result = removeStaleLock(path, status.raw as string);
  if (!result.removed) throw new OdaError("conflict", `The session.lock of chat "${id}" changed; nothing was removed.`);
  return result.status;
}
