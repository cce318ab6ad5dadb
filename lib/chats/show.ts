import { closeSync, fstatSync, lstatSync } from "node:fs";
import { OdaError } from "../errors";
import { listGenerations, readChatFolder, summarizeChat } from "./chat";
import { asHeader, DetailsRebuild } from "./details";
import { locateChat } from "./folder";
import type { LinesResult, TailReport } from "./line-index";
import { reportTail } from "./line-index";
import { LineSplitter, type LogLine, parseLine, parseObject } from "./lines";
import { type LogEnd, type OpenLog, openLogFile, streamLog } from "./log-stream";
import { withRawLog } from "./problem";
import { type ChatView, pickGeneration, type ReadOptions } from "./read";

/**
 * `oda-admin chat show`: one chat in detail and some of its lines, with one open of each log it reads
 * (issue 24: the command opened the log seven times by path, so a file swapped or truncated between two
 * opens mixed two files and printed contradicting errors). The current log is opened once and read once
 * through that descriptor for its details, line count, tail and, when the lines asked for are in it, those
 * lines; lines counted from the end take a second pass through the same descriptor. A change seen after
 * the reads (the file shrank, or another file took its name) is reported once, in place of the errors
 * the cut read produced.
 */

/** What `showChat` read. */
export interface ShownChat {
  chat: ChatView;
  read: LinesResult & { generation: string };
  /** The one sentence for a log changed while it was read (then `read.error` and the tail say nothing more). */
  changed: string | null;
}

/** Reads chat `id` and its lines `from`..`from+count-1` (`from` ≤ 0 counts from the end). */
export async function showChat(
  logDir: string,
  id: string,
  options: ReadOptions & { from: number; count: number },
): Promise<ShownChat> {
  const compress = options.compress ?? true;
  const loc = locateChat(logDir, id);
  const files = readChatFolder(loc);
  const generations = listGenerations(loc.dir, files, compress);
  const current = generations.find((g) => g.current);
  if (!current && !options.generation) {
    // No log to show: the newest one's refusal (wrong form, a FIFO, a link leading outside) says why.
    const refused = [...generations].reverse().find((g) => g.refused);
    throw new OdaError("unusable", refused?.refused ?? `Chat "${id}" has no usable log.`);
  }
  const gen = pickGeneration({ id, generations }, options.generation);
  const opened = new Map<string, OpenLog>();
  const open = (path: string) => {
    let log = opened.get(path);
    if (!log) {
      log = openLogFile(path);
      opened.set(path, log);
    }
    return log;
  };
  try {
    const log = current ? open(current.path) : undefined;
    const wanted = { from: options.from, last: options.from + options.count - 1 };
    const lines: LogLine[] = [];
    let first: Record<string, unknown> | null = null;
    let decoded = 0;
    let currentLines = 0;
    let total = 0;
    let tail: TailReport | null = null;
    let error: string | null = null;
    const chat = await summarizeChat(loc, {
      compress,
      verify: true,
      files,
      log,
      rebuild: async (g) => {
        // One pass for the details, the header, the line count and (from the current log) the lines asked for.
        const rebuild = new DetailsRebuild();
        const splitter = new LineSplitter();
        const same = g.path === gen.path && wanted.from > 0;
        let end: LogEnd | null = null;
        let stop: string | null = null;
        try {
          for await (const item of streamLog(g.path, { compressed: g.compressed, open: open(g.path) })) {
            if (item.type === "end") end = item;
            else
              splitter.push(item.data, (n, offset, bytes, length) => {
                const json = length > bytes.length ? null : parseObject(bytes.toString("utf8"));
                if (n === 1) first = json;
                rebuild.add(n, offset, bytes, length, json);
                if (same && n >= wanted.from && n <= wanted.last) lines.push(parseLine(n, offset, bytes, length));
                return true;
              });
          }
        } catch (e) {
          if (!(e instanceof OdaError)) throw e;
          stop = e.message;
        }
        decoded = splitter.offset;
        currentLines = splitter.lines;
        const result = rebuild.result(g.path, splitter, end, stop);
        if (same) ({ total, tail, error } = { total: splitter.lines, tail: result.tail, error: stop });
        return result;
      },
    });
    let readResult: LinesResult;
    if (current && gen.path === current.path && options.from > 0) {
      readResult = { lines, total, tail, error };
    } else {
      readResult = await readThrough(gen.path, gen.compressed, open(gen.path), options.from, options.count);
    }
    const changed = [...opened.entries()].map(([path, o]) => changeOf(path, o)).find((c) => c !== null) ?? null;
    const view: ChatView = {
      ...chat,
      header: asHeader(first),
      lines: current ? currentLines : null,
      decompressedBytes: current ? decoded : null,
    };
    if (changed) {
      // The cut read's own reports (a cut frame, damage past the new end, an unfinished line) are its effects.
      const logPaths = new Set(opened.keys());
      view.problems = view.problems.filter(
        (p) => !(logPaths.has(p.path) && ["tail", "unreadable", "line"].includes(p.kind)),
      );
      view.tail = null;
      return { chat: view, read: { ...readResult, tail: null, error: null, generation: gen.name }, changed };
    }
    return { chat: view, read: { ...readResult, generation: gen.name }, changed: null };
  } finally {
    for (const o of opened.values()) closeSync(o.fd);
  }
}

/** Lines `from`..`from+count-1` read through `open` (from the end: a first pass counts them). */
async function readThrough(
  path: string,
  compressed: boolean,
  open: OpenLog,
  from: number,
  count: number,
): Promise<LinesResult> {
  const pass = async (want: (n: number) => boolean, stopAfter: number) => {
    const splitter = new LineSplitter();
    const lines: LogLine[] = [];
    let tail: TailReport | null = null;
    let error: string | null = null;
    try {
      for await (const item of streamLog(path, { compressed, open })) {
        if (item.type === "end") {
          tail = reportTail(path, splitter, item);
          break;
        }
        const more = splitter.push(item.data, (n, offset, bytes, length) => {
          if (want(n)) lines.push(parseLine(n, offset, bytes, length));
          return n < stopAfter;
        });
        if (!more) break;
      }
    } catch (e) {
      if (!(e instanceof OdaError)) throw e;
      error = e.message;
    }
    return { lines, total: tail ? splitter.lines : null, tail, error };
  };
  if (from <= 0) {
    const counted = await pass(() => false, Number.POSITIVE_INFINITY);
    if (counted.error || counted.total === null) return counted;
    const start = Math.max(1, counted.total + from);
    const got = await pass((n) => n >= start && n < start + count, Number.POSITIVE_INFINITY);
    return { ...got, total: counted.total };
  }
  return pass((n) => n >= from && n < from + count, from + count - 1);
}

/** The one sentence for a log that changed while it was read through `open`, or null. */
function changeOf(path: string, open: OpenLog): string | null {
  const now = fstatSync(open.fd);
  let swapped = false;
  try {
    swapped = lstatSync(path).ino !== open.ino;
  } catch {
    swapped = true;
  }
  if (now.size < open.size)
    return withRawLog(
      `${path} was cut from ${open.size} to ${now.size} bytes while it was read; what is shown stops where the file did. Run the command again to read it as it is now.`,
      path,
    );
  if (swapped)
    return withRawLog(
      `${path} was replaced by another file while it was read; what is shown is the file as it was when it was opened. Run the command again to read the new one.`,
      path,
    );
  return null;
}
