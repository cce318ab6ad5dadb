import { lineTime } from "./activity";
import { indexLog } from "./line-index";
import { LineSplitter, type LogLine, parseLine } from "./lines";
import { streamLog } from "./log-stream";
import { chatGeneration, isProblemLine, type ReadOptions } from "./read";

/**
 * Filters with context over a log of any size, lnav-style: the lines that
 * match (by role, tool, problem, usage, text), N lines around each, and how
 * many lines each gap hides. A page is read forward from a line with a budget
 * of decoded bytes, so one request never reads the whole of a huge log; the
 * next page goes on where it stopped. A tool call that matches brings its
 * result along (found by `tool_use_id`), so calls and results stay paired.
 */

/** What a filter keeps; every criterion given must hold. */
export interface LineFilter {
  role?: "user" | "assistant" | "system";
  /** A tool's name: its calls (and their results, paired). */
  tool?: string;
  /** Problem lines only (not JSON, or a tool error). */
  problems?: boolean;
  /** Lines that carry token counts (`usage`): where a chat's token totals come from. */
  usage?: boolean;
  /** Text anywhere in the line, case-insensitive. */
  text?: string;
  /**
   * A time range, ms since the epoch, `[after, before)`: the activity strip's drag. A line without a time of
   * its own has the time of the last line before it that had one (as the strip places it); a line before
   * any time is in no range.
   */
  after?: number;
  before?: number;
}

/** Context lines the viewer offers around each match. */
export const FILTER_CONTEXTS = [0, 2, 5] as const;

/** One line a filter shows, and why. */
export interface FilteredLine {
  line: LogLine;
  /** `match`: it matched; `result`: the result of a tool call that matched; `context`: around one. */
  why: "match" | "result" | "context";
  /** Lines hidden between the line shown before this one (or the page's start) and this one. */
  hiddenBefore: number;
}

/** One page of a filtered log. */
export interface FilterPage {
  lines: FilteredLine[];
  /** Lines that matched on this page. */
  matched: number;
  /** The line to read the next page from, or null when the log's end was reached. */
  next: number | null;
  /** Lines after the last one shown, up to where this page stopped reading. */
  hiddenAfter: number;
  /** The last line read. */
  scannedTo: number;
}

/** Decoded bytes of lines one page reads at most (from `from` on) before it stops and says where to go on. */
export const FILTER_BUDGET = 32 * 1024 * 1024;
/** Tool calls waiting for their result, at most (a log of calls that never get one stays bounded). */
const MAX_PENDING = 10_000;

type Parts = { type?: unknown; name?: unknown; id?: unknown; tool_use_id?: unknown }[];

function partsOf(line: LogLine): Parts {
  const content = line.json?.content;
  return Array.isArray(content) ? (content.filter((p) => typeof p === "object" && p !== null) as Parts) : [];
}

/** True when `line` (at `time`: its own, or the last one before it) meets every criterion of `filter` given. */
export function lineMatches(
  line: LogLine,
  filter: LineFilter,
  needle: string | null,
  time: number | null = lineTime(line.json),
): boolean {
  if (filter.after !== undefined && (time === null || time < filter.after)) return false;
  if (filter.before !== undefined && (time === null || time >= filter.before)) return false;
  if (filter.role && line.json?.role !== filter.role) return false;
  if (filter.tool && !partsOf(line).some((p) => p.type === "tool_use" && p.name === filter.tool)) return false;
  if (filter.problems && !isProblemLine(line)) return false;
  if (filter.usage) {
    const usage = line.json?.usage;
    if (typeof usage !== "object" || usage === null) return false;
  }
  if (needle !== null && !line.raw.toLowerCase().includes(needle)) return false;
  return true;
}

/**
 * The lines of a chat's log from `from` on that `filter` keeps, with `context` lines around each, until
 * `count` are shown (and the context and results they owe) or the page's budget of decoded bytes is read.
 */
export async function filterLines(
  logDir: string,
  id: string,
  filter: LineFilter,
  options: ReadOptions & { from: number; count: number; context: number; budget?: number },
): Promise<FilterPage> {
  const gen = chatGeneration(logDir, id, options);
  const index = await indexLog(gen.path, gen.compressed);
  const from = Math.max(1, options.from);
  let start = index.points[0];
  for (const p of index.points) if (p.line < from) start = p;
  const budget = options.budget ?? FILTER_BUDGET;
  const needle = filter.text ? filter.text.toLowerCase() : null;
  const context = Math.max(0, options.context);

  const lines: FilteredLine[] = [];
  const before: LogLine[] = [];
  const pending = new Set<string>();
  let after = 0;
  let matched = 0;
  let lastShown = from - 1;
  let last = from - 1;
  let read = 0;
  let full = false;
  let next: number | null = null;
  // A time range needs the time of the lines before `from` (a line without one takes theirs): the lines from the
  // seek point before `from` are read for it (a seek point is a few MiB back at most, never the whole log).
  const timed = filter.after !== undefined || filter.before !== undefined;
  let time: number | null = null;
  const show = (line: LogLine, why: FilteredLine["why"]) => {
    lines.push({ line, why, hiddenBefore: line.n - lastShown - 1 });
    lastShown = line.n;
  };

  const splitter = new LineSplitter(start?.line ?? 0, start?.dec ?? 0);
  for await (const item of streamLog(gen.path, { compressed: gen.compressed, from: start })) {
    if (item.type === "end") break;
    const more = splitter.push(item.data, (n, offset, bytes, length) => {
      if (n < from) {
        if (timed) time = lineTime(parseLine(n, offset, bytes, length).json) ?? time;
        return true;
      }
      if (full && after === 0 && pending.size === 0) {
        next = n;
        return false;
      }
      last = n;
      read += length + 1;
      const line = parseLine(n, offset, bytes, length);
      const parts = partsOf(line);
      const isResult = parts.some((p) => p.type === "tool_result" && pending.delete(String(p.tool_use_id)));
      if (timed) time = lineTime(line.json) ?? time;
      const isMatch = !full && lineMatches(line, filter, needle, time);
      if (isMatch || isResult) {
        for (const b of before) show(b, "context");
        before.length = 0;
        show(line, isMatch ? "match" : "result");
        if (isMatch) {
          matched++;
          if (filter.tool)
            for (const p of parts)
              if (p.type === "tool_use" && p.name === filter.tool && pending.size < MAX_PENDING)
                pending.add(String(p.id));
        }
        after = context;
      } else if (after > 0) {
        show(line, "context");
        after--;
      } else if (context > 0) {
        before.push(line);
        if (before.length > context) before.shift();
      }
      if (lines.length >= options.count) full = true;
      return true;
    });
    if (!more) break;
    // Out of budget: stop at a line boundary; the next page goes on from there.
    if (read >= budget && next === null && after === 0) {
      next = splitter.lines + 1;
      break;
    }
  }
  return { lines, matched, next, hiddenAfter: last - lastShown, scannedTo: last };
}

/** The tools a chat's log calls, with how many times each, most called first (one read of the whole log). */
export async function toolCounts(logDir: string, id: string, options: ReadOptions = {}): Promise<[string, number][]> {
  const gen = chatGeneration(logDir, id, options);
  const counts = new Map<string, number>();
  const splitter = new LineSplitter();
  for await (const item of streamLog(gen.path, { compressed: gen.compressed })) {
    if (item.type === "end") break;
    splitter.push(item.data, (n, offset, bytes, length) => {
      // Only lines naming a tool call are parsed.
      if (!bytes.includes('"tool_use"')) return true;
      for (const p of partsOf(parseLine(n, offset, bytes, length)))
        if (p.type === "tool_use" && typeof p.name === "string" && (counts.has(p.name) || counts.size < 10_000))
          counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
      return true;
    });
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
