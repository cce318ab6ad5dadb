import { createReadStream, readdirSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { OdaError } from "../errors";
import { type LockStatus, readLockStatus, removeStaleLock } from "../fs/lock";
import { type ChatSummary, type Generation, listGenerations, summarizeChat } from "./chat";
import { asHeader, readFirstLine, type SessionHeader } from "./details";
import { locateChat } from "./folder";
import { indexLog, type LinesResult, type LogIndex, readLogLines } from "./line-index";
import { LineSplitter, type LogLine, parseLine } from "./lines";
import { streamLog } from "./log-stream";
import { LOCK_FILE } from "./names";

/** Options shared by the chat readers. */
export interface ReadOptions {
  /** The folder's form (`sessions.compress`, default true). */
  compress?: boolean;
  /** A generation by file name (default: the current one). */
  generation?: string;
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
  if (!gen)
    throw new OdaError(
      "not_found",
      name ? `Chat "${summary.id}" has no log named ${name}.` : `Chat "${summary.id}" has no usable log.`,
    );
  if (gen.refused) throw new OdaError("unusable", gen.refused);
  return gen;
}

function chatGeneration(logDir: string, id: string, options: ReadOptions): Generation {
  const loc = locateChat(logDir, id);
  return pickGeneration(
    { id, generations: listGenerations(loc.dir, readdirSync(loc.dir), options.compress ?? true) },
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
  const splitter = new LineSplitter(start?.line ?? 0, start?.dec ?? 0);
  let found: LogLine | null = null;
  for await (const item of streamLog(gen.path, { compressed: gen.compressed, from: start })) {
    if (item.type === "end") break;
    const more = splitter.push(item.data, (n, offset, bytes, length) => {
      if (n < from) return true;
      const line = parseLine(n, offset, bytes, length);
      if (!test(line)) return true;
      found = line;
      return false;
    });
    if (!more) break;
  }
  return found;
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
  if (!compressed) return createReadStream(path, { flags: "r" });
  return Readable.from(
    (async function* () {
      for await (const item of streamLog(path, { compressed: true })) if (item.type === "data") yield item.data;
    })(),
  );
}

/** The lock of a chat. */
export function readChatLock(logDir: string, id: string): LockStatus {
  return readLockStatus(join(locateChat(logDir, id).dir, LOCK_FILE));
}

/**
 * Removes a chat's `session.lock` after a person confirmed it, only when it is
 * provably stale and still names `expectPid`; refuses otherwise. This is the
 * only write the dashboard makes inside a chat folder.
 */
export function freeStaleLock(logDir: string, id: string, options: { expectPid: number }): LockStatus {
  const path = join(locateChat(logDir, id).dir, LOCK_FILE);
  const status = readLockStatus(path);
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
