import { createHash } from "node:crypto";
import { closeSync, statSync } from "node:fs";
import { OdaError } from "../errors";
import { LineSplitter, type LogLine, parseLine } from "./lines";
import { type LogEnd, openLogFile, type SeekPoint, streamLog } from "./log-stream";
import { withRawLog } from "./problem";
import { readRange } from "./zstd/file-window";

/**
 * A sparse index of line offsets per log file, kept in memory: seek points
 * (line number, decompressed offset, frame offset) about every MiB, so lines
 * N..N+K of a huge log are read by decoding from the nearest point. When the
 * file grows and its old bytes are unchanged, the index is extended from its
 * last point instead of rebuilt (follow mode).
 */

/** How a log ends (`docs/file-contract.md`, Saves, crashes and the unfinished tail). */
export interface TailReport {
  state: "complete" | "unfinished-line" | "cut-frame";
  /** Decompressed offset where the unfinished line starts (`null`: none). */
  offset: number | null;
  /** zstd: the file offset of the cut-off frame. */
  frameOffset: number | null;
  /** zstd: bytes decoded from the cut frame. */
  decodedFromCut: number;
  /** Bytes of the unfinished line. */
  pendingBytes: number;
  /** The report to show (ends with the raw log note), `null` when complete. */
  message: string | null;
  /** The unfinished line's first bytes (at most `TAIL_HEAD_BYTES`), base64: what a person needs to judge it. */
  head?: string;
}

/** How many bytes of an unfinished tail are kept for the page to show (hex and text). */
export const TAIL_HEAD_BYTES = 512;

/** The index of one log file. */
export interface LogIndex {
  path: string;
  compressed: boolean;
  ino: number;
  /** File size when scanned. */
  size: number;
  points: SeekPoint[];
  /** Complete lines. */
  lines: number;
  /** Decompressed bytes read. */
  decodedBytes: number;
  tail: TailReport;
  /** Set when decoding stopped at damaged data: the refusal sentence. */
  error: string | null;
  /** Complete lines that are not JSON objects (the first 1000). */
  badLines: number[];
  /** Lines over the line limit (the first 100): number, decoded offset, length. */
  longLines: LongLine[];
  /** Hash of the 4 KiB before `checkEnd`, to tell growth from replacement. */
  check: { end: number; sha256: string };
}

/** A line over the line limit, found while reading. */
export interface LongLine {
  n: number;
  offset: number;
  length: number;
}

const POINT_SPACING = 1024 * 1024;
const cache = new Map<string, LogIndex>();
const building = new Map<string, Promise<LogIndex>>();

/**
 * Where built indexes are kept beyond this thread (the admin state, `remembered.ts`): the server's decode
 * thread ends when idle, and the next one takes a big log's index from there instead of reading the log again.
 * `recall` gives an index only while the log's identity is the one it was built over.
 */
export interface IndexMemory {
  recall(path: string): LogIndex | null;
  keep(index: LogIndex): void;
}
let memory: IndexMemory | null = null;

/** Sets where this thread's indexes are remembered (`null`: nowhere; the CLI's default). */
export function rememberIndexesIn(where: IndexMemory | null): void {
  memory = where;
}

/** How many times a log was read to build its index since the process started (tests and benches). */
export const indexStats = { scans: 0 };

/** Forgets the indexes built or recalled in this thread, as a new thread starts without them (tests). */
export function forgetIndexes(): void {
  cache.clear();
}

function keepInCache(index: LogIndex): void {
  cache.set(index.path, index);
  if (cache.size > 256) cache.delete(cache.keys().next().value as string);
}

/** Builds the tail report from the splitter and the stream's end. */
export function reportTail(path: string, splitter: LineSplitter, end: LogEnd): TailReport {
  const pendingBytes = splitter.pendingBytes;
  const offset = pendingBytes ? splitter.lineStart : null;
  const head = pendingBytes ? splitter.pending().subarray(0, TAIL_HEAD_BYTES).toString("base64") : undefined;
  if (end.cut) {
    const unfinished = pendingBytes
      ? ` The unfinished line at byte ${offset} (${pendingBytes} bytes) is not shown.`
      : "";
    return {
      state: "cut-frame",
      offset,
      frameOffset: end.cut.offset,
      decodedFromCut: end.cut.decoded,
      pendingBytes,
      head,
      message: withRawLog(
        `The log's last zstd frame is cut off at byte ${end.cut.offset}; ${end.cut.decoded} bytes of it were decoded and every complete line before the cut was kept.${unfinished}`,
        path,
      ),
    };
  }
  if (pendingBytes) {
    return {
      state: "unfinished-line",
      offset,
      frameOffset: null,
      decodedFromCut: 0,
      pendingBytes,
      head,
      message: withRawLog(
        `The log ends with an unfinished line at byte ${offset} (${pendingBytes} bytes, no newline); every complete line before it was kept.`,
        path,
      ),
    };
  }
  return { state: "complete", offset: null, frameOffset: null, decodedFromCut: 0, pendingBytes: 0, message: null };
}

function hashBefore(path: string, end: number): string {
  const { fd } = openLogFile(path);
  try {
    return createHash("sha256")
      .update(readRange(fd, Math.max(0, end - 4096), end))
      .digest("hex");
  } finally {
    closeSync(fd);
  }
}

/** A quick test that a line is a JSON object; lines failing it are parsed to be sure. */
function looksLikeObject(bytes: Buffer): boolean {
  const last = bytes[bytes.length - 1] === 13 ? bytes[bytes.length - 2] : bytes[bytes.length - 1];
  return bytes[0] === 123 && last === 125;
}

/** Scans a log from `resume` (or the start) to its end, recording seek points. */
async function scanLog(path: string, compressed: boolean, ino: number, resume?: LogIndex): Promise<LogIndex> {
  const from = resume?.points[resume.points.length - 1];
  const points = resume && from ? resume.points.slice() : [];
  const badLines = resume && from ? resume.badLines.filter((n) => n <= from.line) : [];
  const longLines = resume && from ? resume.longLines.filter((l) => l.n <= from.line) : [];
  const splitter = new LineSplitter(from?.line ?? 0, from?.dec ?? 0);
  let end: LogEnd | null = null;
  let error: string | null = null;
  const addPoint = (p: SeekPoint) => {
    const last = points[points.length - 1];
    if (!last || (p.dec - last.dec >= POINT_SPACING && p.comp > last.comp)) points.push(p);
  };
  if (!from) points.push({ line: 0, dec: 0, comp: 0 });
  const onLine = (n: number, offset: number, bytes: Buffer, length: number) => {
    if (length > bytes.length) {
      if (longLines.length < 100) longLines.push({ n, offset, length });
      return true;
    }
    if (!looksLikeObject(bytes) && badLines.length < 1000 && parseLine(n, offset, bytes).json === null)
      badLines.push(n);
    return true;
  };
  try {
    for await (const item of streamLog(path, { compressed, from })) {
      if (item.type === "end") {
        end = item;
        break;
      }
      if (compressed && item.comp !== null && splitter.atLineStart)
        addPoint({ line: splitter.lines, dec: item.dec, comp: item.comp });
      splitter.push(item.data, onLine);
      if (!compressed && splitter.lines > 0)
        addPoint({ line: splitter.lines, dec: splitter.lineStart, comp: splitter.lineStart });
    }
  } catch (e) {
    if (!(e instanceof OdaError)) throw e;
    error = e.message;
  }
  const size = end?.size ?? statSync(path).size;
  const tail = end
    ? reportTail(path, splitter, end)
    : {
        state: "complete" as const,
        offset: null,
        frameOffset: null,
        decodedFromCut: 0,
        pendingBytes: 0,
        message: null,
      };
  const completeEnd = end ? (compressed ? end.completeEnd : splitter.lineStart) : 0;
  if (end && !end.cut && splitter.atLineStart)
    addPoint({ line: splitter.lines, dec: splitter.offset, comp: completeEnd });
  return {
    path,
    compressed,
    ino,
    size,
    points,
    lines: splitter.lines,
    decodedBytes: splitter.offset,
    tail,
    error,
    badLines,
    longLines,
    check: { end: completeEnd, sha256: hashBefore(path, completeEnd) },
  };
}

/**
 * The line index of a log: cached, extended when the file grew with its old
 * bytes unchanged, rebuilt when it was replaced or shrank.
 */
export async function indexLog(path: string, compressed: boolean): Promise<LogIndex> {
  const st = statSync(path);
  const known = cache.get(path);
  if (known && known.ino === st.ino && known.compressed === compressed && known.size === st.size) return known;
  const pending = building.get(path);
  if (pending) return pending;
  const grown =
    known &&
    known.ino === st.ino &&
    known.compressed === compressed &&
    st.size > known.size &&
    !known.error &&
    hashBefore(path, known.check.end) === known.check.sha256;
  if (!known) {
    const recalled = memory?.recall(path);
    if (recalled && recalled.ino === st.ino && recalled.compressed === compressed && recalled.size === st.size) {
      keepInCache(recalled);
      return recalled;
    }
  }
  indexStats.scans++;
  const job = scanLog(path, compressed, st.ino, grown ? known : undefined).finally(() => building.delete(path));
  building.set(path, job);
  const index = await job;
  keepInCache(index);
  memory?.keep(index);
  return index;
}

/** The index of a log if one was built here or remembered (it may be behind the file). */
export function cachedIndex(path: string): LogIndex | undefined {
  const known = cache.get(path);
  if (known) return known;
  const recalled = memory?.recall(path);
  if (recalled) keepInCache(recalled);
  return recalled ?? undefined;
}

/** Lines read by `readLogLines`. */
export interface LinesResult {
  lines: LogLine[];
  /** Complete lines in the log, when known (the index is built and current). */
  total: number | null;
  /** The tail, when the read reached the end. */
  tail: TailReport | null;
  /** Set when decoding stopped at damaged data before the lines asked for. */
  error: string | null;
}

/**
 * Lines `from`..`from+count-1` (1-based) of a log, decoding from the nearest
 * seek point. `from` ≤ 0 counts from the end (`-99` → the last 100 lines) and
 * builds the index first.
 */
export async function readLogLines(
  path: string,
  compressed: boolean,
  from: number,
  count: number,
): Promise<LinesResult> {
  let index = cachedIndex(path);
  if (from <= 0) {
    index = await indexLog(path, compressed);
    from = Math.max(1, index.lines + from);
  }
  const st = statSync(path);
  const current = index && index.ino === st.ino && index.size === st.size ? index : undefined;
  // Seek points stay valid while the file only grew (its old bytes unchanged); otherwise read from the start.
  const usable =
    index &&
    index.ino === st.ino &&
    index.compressed === compressed &&
    (index.size === st.size || (st.size > index.size && hashBefore(path, index.check.end) === index.check.sha256));
  let start: SeekPoint | undefined;
  for (const p of usable && index ? index.points : []) {
    if (p.line < from) start = p;
    else break;
  }
  const splitter = new LineSplitter(start?.line ?? 0, start?.dec ?? 0);
  const lines: LogLine[] = [];
  const last = from + count - 1;
  let tail: TailReport | null = null;
  let error: string | null = null;
  try {
    for await (const item of streamLog(path, { compressed, from: start })) {
      if (item.type === "end") {
        tail = reportTail(path, splitter, item);
        break;
      }
      const more = splitter.push(item.data, (n, offset, bytes, length) => {
        if (n >= from) lines.push(parseLine(n, offset, bytes, length));
        return n < last;
      });
      if (!more) break;
    }
  } catch (e) {
    if (!(e instanceof OdaError)) throw e;
    error = e.message;
  }
  return {
    lines,
    total: current ? current.lines : tail ? splitter.lines : null,
    tail: tail ?? current?.tail ?? null,
    error,
  };
}
