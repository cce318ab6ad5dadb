import { statSync } from "node:fs";
import { LineSplitter, type LogLine, parseLine } from "./lines";
import { streamLog } from "./log-stream";
import { chatGeneration, isProblemLine, type ReadOptions } from "./read";

/**
 * A chat's activity over time, for the strip above the log: messages, tokens
 * and problem lines per interval. Read in one pass over a log of any size with
 * bounded memory: intervals are fixed spans of UTC time (so a daylight-saving
 * change neither merges nor splits them; the page shows them in local time),
 * and when the log covers more than `ACTIVITY_BUCKETS` of them the span is
 * widened and neighbours merged, so at most that many are ever held.
 *
 * A line's time is its `ts` (format 4) or `time` (format 1). A line without
 * one (a line that is not JSON, a line of a kind without a time) belongs to
 * the time of the last line before it that had one; lines before any time
 * are counted apart (`before`). The viewer's time filter uses the same rule.
 */

/** Intervals the strip shows at most. */
export const ACTIVITY_BUCKETS = 120;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Interval widths, each a multiple of the one before (so widening merges whole intervals). */
const WIDTHS = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY];

/** One interval `[start, start + width)` (ms since the epoch, UTC). */
export interface ActivityBucket {
  start: number;
  /** Message lines (`type: "message"`, or a format 1 line with a role). */
  messages: number;
  /** Input and output tokens of the lines' `usage`. */
  tokens: number;
  /** Problem lines: not JSON (or over the line limit), or a tool result marked as an error. */
  problems: number;
  /** Every line that fell in the interval, and the first of them (where a click jumps to). */
  lines: number;
  firstLine: number;
}

/** The strip: every interval from the first to the last (empty ones too), and what fell on none. */
export interface ActivityStrip {
  /** Interval width in ms. */
  width: number;
  buckets: ActivityBucket[];
  /** Lines read, and those before the first line with a time (on no interval). */
  lines: number;
  before: { lines: number; messages: number; tokens: number; problems: number };
  /** Lines placed by the time of a line before them (they had none of their own). */
  untimed: number;
}

/** A line's own time in ms (its `ts`, or format 1's `time`), or null when it has none that parses. */
export function lineTime(json: Record<string, unknown> | null): number | null {
  const t = json?.ts ?? json?.time;
  if (typeof t !== "string") return null;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? ms : null;
}

/** What one line adds to its interval. */
export interface LineActivity {
  message: boolean;
  tokens: number;
  problem: boolean;
}

const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

/** A line's share of the strip. */
export function lineActivity(line: LogLine): LineActivity {
  const json = line.json;
  const usage = json?.usage as { input_tokens?: unknown; output_tokens?: unknown } | undefined;
  return {
    message: Boolean(json && (json.type === "message" || (json.type === undefined && typeof json.role === "string"))),
    tokens: usage && typeof usage === "object" ? count(usage.input_tokens) + count(usage.output_tokens) : 0,
    problem: isProblemLine(line),
  };
}

/** Adds lines one at a time; holds at most `max` intervals whatever the log's length or time span. */
export class ActivityBucketer {
  private widthAt = 0;
  private readonly map = new Map<number, ActivityBucket>();
  private lo = Number.POSITIVE_INFINITY;
  private hi = Number.NEGATIVE_INFINITY;
  private last: number | null = null;
  private lines = 0;
  private untimed = 0;
  private readonly before = { lines: 0, messages: 0, tokens: 0, problems: 0 };

  constructor(private readonly max = ACTIVITY_BUCKETS) {}

  get width(): number {
    return WIDTHS[this.widthAt] ?? DAY * 2 ** (this.widthAt - WIDTHS.length + 1);
  }

  /** Line `n`, with its own time (null: none) and what it adds. */
  add(n: number, time: number | null, a: LineActivity): void {
    this.lines++;
    if (time === null) this.untimed++;
    else this.last = time;
    const at = time ?? this.last;
    if (at === null) {
      this.before.lines++;
      this.before.messages += a.message ? 1 : 0;
      this.before.tokens += a.tokens;
      this.before.problems += a.problem ? 1 : 0;
      return;
    }
    let key = Math.floor(at / this.width);
    if (key < this.lo || key > this.hi) {
      // The times the intervals held and this one cover, whatever the width becomes.
      const from = Math.min(this.lo * this.width, at);
      const to = Math.max(this.hi * this.width, at);
      let widened = false;
      while (!this.fits(from, to)) {
        this.widthAt++;
        widened = true;
      }
      if (widened) this.regroup();
      key = Math.floor(at / this.width);
      this.lo = Math.min(this.lo, key);
      this.hi = Math.max(this.hi, key);
    }
    let b = this.map.get(key);
    if (!b) {
      b = { start: key * this.width, messages: 0, tokens: 0, problems: 0, lines: 0, firstLine: n };
      this.map.set(key, b);
    }
    b.lines++;
    if (n < b.firstLine) b.firstLine = n;
    if (a.message) b.messages++;
    b.tokens += a.tokens;
    if (a.problem) b.problems++;
  }

  /** True when the times `from`..`to` fall in at most `max` intervals of the current width. */
  private fits(from: number, to: number): boolean {
    return Math.floor(to / this.width) - Math.floor(from / this.width) + 1 <= this.max;
  }

  /** Merges the intervals held into the current (wider) width. */
  private regroup(): void {
    const old = [...this.map.values()];
    this.map.clear();
    this.lo = Number.POSITIVE_INFINITY;
    this.hi = Number.NEGATIVE_INFINITY;
    for (const b of old) {
      const key = Math.floor(b.start / this.width);
      this.lo = Math.min(this.lo, key);
      this.hi = Math.max(this.hi, key);
      const into = this.map.get(key);
      if (!into) {
        this.map.set(key, { ...b, start: key * this.width });
        continue;
      }
      into.messages += b.messages;
      into.tokens += b.tokens;
      into.problems += b.problems;
      into.lines += b.lines;
      into.firstLine = Math.min(into.firstLine, b.firstLine);
    }
  }

  /** Every interval from the first to the last, empty ones included. */
  result(): ActivityStrip {
    const buckets: ActivityBucket[] = [];
    for (let k = this.lo; k <= this.hi; k++)
      buckets.push(
        this.map.get(k) ?? { start: k * this.width, messages: 0, tokens: 0, problems: 0, lines: 0, firstLine: 0 },
      );
    return { width: this.width, buckets, lines: this.lines, before: { ...this.before }, untimed: this.untimed };
  }
}

/** What `chatActivity` yields: progress now and then, and the strip at the end. */
export type ActivityItem =
  | { type: "progress"; bytes: number; lines: number }
  | { type: "strip"; strip: ActivityStrip; bytes: number };

/** Decoded bytes between two progress items. */
const PROGRESS_EVERY = 16 * 1024 * 1024;

/** The last strips read, by log path, trusted while the log's size and change time are those it was read at. */
const cache = new Map<
  string,
  { size: number; mtimeMs: number; ctimeMs: number; strip: ActivityStrip; bytes: number }
>();
const CACHED = 16;

/**
 * A chat's activity strip, in one streamed pass over its log (progress every few MiB decoded), or at once
 * from the last read when the log has not changed since.
 */
export async function* chatActivity(
  logDir: string,
  id: string,
  options: ReadOptions = {},
): AsyncGenerator<ActivityItem> {
  const gen = chatGeneration(logDir, id, options);
  const st = statSync(gen.path);
  const known = cache.get(gen.path);
  if (known && known.size === st.size && known.mtimeMs === st.mtimeMs && known.ctimeMs === st.ctimeMs) {
    yield { type: "strip", strip: known.strip, bytes: known.bytes };
    return;
  }
  const bucketer = new ActivityBucketer();
  const splitter = new LineSplitter();
  let shown = 0;
  for await (const item of streamLog(gen.path, { compressed: gen.compressed })) {
    if (item.type === "end") break;
    splitter.push(item.data, (n, offset, bytes, length) => {
      const line = parseLine(n, offset, bytes, length);
      bucketer.add(n, lineTime(line.json), lineActivity(line));
      return true;
    });
    if (splitter.offset - shown >= PROGRESS_EVERY) {
      shown = splitter.offset;
      yield { type: "progress", bytes: splitter.offset, lines: splitter.lines };
    }
  }
  const strip = bucketer.result();
  cache.delete(gen.path);
  cache.set(gen.path, { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, strip, bytes: splitter.offset });
  if (cache.size > CACHED) cache.delete(cache.keys().next().value as string);
  yield { type: "strip", strip, bytes: splitter.offset };
}
