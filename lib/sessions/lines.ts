/**
 * Splitting a decompressed log into lines, and reading one line
 * (`shared/oda-files.md`, Chat logs > Lines): every line is one JSON object
 * ended by `\n`; any object is kept as it is, an unknown type is never an
 * error; a complete line that is not a JSON object is an error at its number.
 */

/** Lines longer than this are reported instead of buffered (bounded memory). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Called for each complete line; return `false` to stop. */
export type LineHandler = (n: number, offset: number, bytes: Buffer) => boolean | undefined;

/**
 * Feeds decompressed chunks and calls back once per complete line with its
 * 1-based number and its offset in the decompressed stream. A line cut
 * between chunks is carried over; what is left at the end is the unfinished tail.
 */
export class LineSplitter {
  /** Complete lines seen so far. */
  lines: number;
  /** Decompressed offset just after the last byte fed. */
  offset: number;
  private carry: Buffer[] = [];
  private carryBytes = 0;
  /** Offset where the line in progress starts. */
  lineStart: number;
  /** Set when a line exceeded MAX_LINE_BYTES; its bytes were dropped. */
  overlong: number | null = null;

  constructor(startLine = 0, startOffset = 0) {
    this.lines = startLine;
    this.offset = startOffset;
    this.lineStart = startOffset;
  }

  /** True when no partial line is carried (the next byte starts a line). */
  get atLineStart(): boolean {
    return this.carryBytes === 0 && this.lineStart === this.offset;
  }

  /** Bytes of the unfinished line in progress. */
  get pendingBytes(): number {
    return this.offset - this.lineStart;
  }

  /** The unfinished line in progress (bounded by MAX_LINE_BYTES). */
  pending(): Buffer {
    return Buffer.concat(this.carry);
  }

  /** Feeds a chunk; returns false when `onLine` asked to stop (the rest of the chunk is not consumed). */
  push(chunk: Buffer, onLine?: LineHandler): boolean {
    let pos = 0;
    const base = this.offset;
    for (;;) {
      const nl = chunk.indexOf(10, pos);
      if (nl < 0) break;
      this.lines++;
      const start = this.lineStart;
      let bytes: Buffer | null = null;
      if (onLine) {
        if (this.carryBytes) {
          this.carry.push(chunk.subarray(pos, nl));
          bytes = Buffer.concat(this.carry);
        } else bytes = chunk.subarray(pos, nl);
      }
      this.carry = [];
      this.carryBytes = 0;
      pos = nl + 1;
      this.lineStart = base + pos;
      if (onLine && onLine(this.lines, start, bytes as Buffer) === false) {
        this.offset = base + pos;
        return false;
      }
    }
    if (pos < chunk.length) {
      if (this.carryBytes + chunk.length - pos > MAX_LINE_BYTES) {
        this.overlong ??= this.lines + 1;
        this.carry = [];
        this.carryBytes = 0;
      } else {
        this.carry.push(chunk.subarray(pos));
        this.carryBytes += chunk.length - pos;
      }
    }
    this.offset = base + chunk.length;
    return true;
  }
}

/** One line as served to callers. */
export interface LogLine {
  /** 1-based line number. */
  n: number;
  /** Byte offset of the line in the decompressed stream. */
  offset: number;
  /** The line's text without its `\n`. */
  raw: string;
  /** The parsed object, or `null` when the line is not a JSON object. */
  json: Record<string, unknown> | null;
  /** Set when the line is not a JSON object: the sentence to show. */
  error?: string;
}

/** Parses one complete line. */
export function parseLine(n: number, offset: number, bytes: Buffer): LogLine {
  const raw = bytes.toString("utf8");
  const json = parseObject(raw);
  return json ? { n, offset, raw, json } : { n, offset, raw, json: null, error: badLineSentence(n) };
}

/** The parsed JSON object of a line's text, or `null`. */
export function parseObject(raw: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The error for a complete line that is not a JSON object. */
export function badLineSentence(n: number): string {
  return `Line ${n} is not a JSON object.`;
}
