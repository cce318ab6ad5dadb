import { formatBytes, LINE_HEAD_BYTES, logLimits } from "./limits";

/**
 * Splitting a decompressed log into lines, and reading one line
 * (`docs/file-contract.md`, Chat logs > Lines): every line is one JSON object
 * ended by `\n`; any object is kept as it is, an unknown type is never an
 * error; a complete line that is not a JSON object is an error at its number.
 */

/**
 * Called for each complete line: its 1-based number, decompressed offset, bytes
 * and full length. A line longer than the line limit comes with only its first
 * `LINE_HEAD_BYTES` bytes (`bytes.length < length`). Return `false` to stop.
 */
export type LineHandler = (n: number, offset: number, bytes: Buffer, length: number) => boolean | undefined;

/**
 * Called with every piece of a line over the line limit, in order, instead of
 * keeping its head: a reader that must pass such a line on whole (a support
 * bundle) streams it; its line handler then gets no bytes, only its length.
 */
export type LongPieceHandler = (piece: Buffer) => void;

/**
 * Feeds decompressed chunks and calls back once per complete line with its
 * 1-based number and its offset in the decompressed stream. A line cut
 * between chunks is carried over; what is left at the end is the unfinished
 * tail. A line over `maxLineBytes` is never held whole: only its head is kept
 * (or, with `onLongPiece`, it is handed on piece by piece).
 */
export class LineSplitter {
  /** Complete lines seen so far. */
  lines: number;
  /** Decompressed offset just after the last byte fed. */
  offset: number;
  private carry: Buffer[] = [];
  private carryBytes = 0;
  /** True while the line in progress is over the limit (only its head is carried). */
  private truncating = false;
  /** Offset where the line in progress starts. */
  lineStart: number;
  private readonly maxLineBytes: number;
  private readonly onLongPiece: LongPieceHandler | null;

  constructor(
    startLine = 0,
    startOffset = 0,
    maxLineBytes = logLimits().maxLineBytes,
    onLongPiece: LongPieceHandler | null = null,
  ) {
    this.lines = startLine;
    this.offset = startOffset;
    this.lineStart = startOffset;
    this.maxLineBytes = maxLineBytes;
    this.onLongPiece = onLongPiece;
  }

  /** True while the line in progress is over the limit (with `onLongPiece`: its bytes so far were handed on). */
  get inLongLine(): boolean {
    return this.truncating;
  }

  /** True when no partial line is carried (the next byte starts a line). */
  get atLineStart(): boolean {
    return this.carryBytes === 0 && this.lineStart === this.offset;
  }

  /** Bytes of the unfinished line in progress. */
  get pendingBytes(): number {
    return this.offset - this.lineStart;
  }

  /** The unfinished line in progress (its head only when over the limit; nothing when it was handed on). */
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
      const length = base + nl - start;
      let bytes: Buffer | null = null;
      if (this.onLongPiece && (this.truncating || length > this.maxLineBytes)) {
        for (const piece of this.carry) this.onLongPiece(piece);
        this.onLongPiece(chunk.subarray(pos, nl));
        bytes = EMPTY;
      } else if (onLine) {
        if (this.truncating) bytes = Buffer.concat(this.carry);
        else if (length > this.maxLineBytes) bytes = headOf([...this.carry, chunk.subarray(pos, nl)]);
        else if (this.carryBytes) bytes = Buffer.concat([...this.carry, chunk.subarray(pos, nl)]);
        else bytes = chunk.subarray(pos, nl);
      }
      this.carry = [];
      this.carryBytes = 0;
      this.truncating = false;
      pos = nl + 1;
      this.lineStart = base + pos;
      if (onLine && onLine(this.lines, start, bytes as Buffer, length) === false) {
        this.offset = base + pos;
        return false;
      }
    }
    if (pos < chunk.length && this.truncating && this.onLongPiece) this.onLongPiece(chunk.subarray(pos));
    else if (pos < chunk.length && !this.truncating) {
      this.carry.push(chunk.subarray(pos));
      this.carryBytes += chunk.length - pos;
      if (this.carryBytes > this.maxLineBytes && this.onLongPiece) {
        for (const piece of this.carry) this.onLongPiece(piece);
        this.carry = [];
        this.carryBytes = 0;
        this.truncating = true;
      } else if (this.carryBytes > this.maxLineBytes) {
        this.carry = [headOf(this.carry)];
        this.carryBytes = (this.carry[0] as Buffer).length;
        this.truncating = true;
      }
    }
    this.offset = base + chunk.length;
    return true;
  }
}

const EMPTY = Buffer.alloc(0);

/** The first `LINE_HEAD_BYTES` of a line's pieces, copied (so the chunks they came from can be freed). */
function headOf(parts: Buffer[]): Buffer {
  const head = Buffer.concat(
    parts,
    Math.min(
      LINE_HEAD_BYTES,
      parts.reduce((n, p) => n + p.length, 0),
    ),
  );
  return Buffer.from(head);
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
  /** Set when the line is over the line limit: its full length in bytes (`raw` holds its head only). */
  length?: number;
}

/** Parses one complete line; a line over the limit (`length` > its bytes) is kept as its head, unparsed. */
export function parseLine(n: number, offset: number, bytes: Buffer, length = bytes.length): LogLine {
  if (length > bytes.length) {
    return { n, offset, raw: bytes.toString("utf8"), json: null, error: longLineSentence(n, length), length };
  }
  const raw = bytes.toString("utf8");
  const json = parseObject(raw);
  return json ? { n, offset, raw, json } : { n, offset, raw, json: null, error: badLineSentence(n) };
}

/** The parsed JSON object of a line's text, or `null`. */
export function parseObject(raw: string): Record<string, unknown> | null {
  // A failed JSON.parse costs about 10 µs (the thrown error), so text that cannot be an object is refused
  // without it, and a bad line repeated (as in a bomb of one bad line) is refused from memory.
  if (!bracedObject(raw) || raw === lastBad) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    lastBad = raw.length <= 4096 ? raw : null;
    return null;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

let lastBad: string | null = null;

/** True when the text's first and last non-blank characters are `{` and `}` (JSON white space: space, tab, CR, LF). */
function bracedObject(raw: string): boolean {
  let i = 0;
  let j = raw.length - 1;
  while (i <= j && isBlank(raw.charCodeAt(i))) i++;
  while (j > i && isBlank(raw.charCodeAt(j))) j--;
  return i < j && raw.charCodeAt(i) === 123 && raw.charCodeAt(j) === 125;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 10;
}

/** The error for a complete line that is not a JSON object. */
export function badLineSentence(n: number): string {
  return `Line ${n} is not a JSON object.`;
}

/** The note for a line over the line limit, shown with its head. */
export function longLineSentence(n: number, length: number, max = logLimits().maxLineBytes): string {
  return `Line ${n} is ${length} bytes long (${formatBytes(length)}), over the limit of ${formatBytes(max)} for one line; only its first ${LINE_HEAD_BYTES} bytes are shown.`;
}
