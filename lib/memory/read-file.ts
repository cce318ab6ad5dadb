import { createHash } from "node:crypto";
import { type BigIntStats, constants, promises as fsp, lstatSync, statSync } from "node:fs";
import { describeFileKind, isSystemError, systemErrorReason } from "../fs";
import { StatCache, settleClock } from "./file-cache";
import { countCodePoints } from "./format";
import type { Limits } from "./limits";
import { MESSAGES } from "./messages";
import { type MemoryParse, type MemoryProblem, type ParsedMemory, parseMemoryFile } from "./parse";

/** One memory file as read from disk. */
export interface FileRead {
  /** The bytes, or null when the file could not be read (or was too large to read). */
  bytes: Uint8Array | null;
  size: number;
  mtimeMs: number;
  parse: MemoryParse;
}

function readProblem(error: unknown, path: string): MemoryProblem {
  const code = (error as NodeJS.ErrnoException).code;
  const refused =
    code === "EACCES" || code === "EPERM" || (isSystemError(error) && code !== "EISDIR" && code !== "ELOOP");
  if (refused)
    return {
      ok: false,
      message: MESSAGES.cannotRead(systemErrorReason(error as NodeJS.ErrnoException, path)),
      unreadable: true,
    };
  const reason =
    code === "EISDIR"
      ? "it is a folder."
      : code === "ELOOP"
        ? "it is a symbolic link that changed while it was read."
        : `${code ?? "unknown error"}.`;
  return { ok: false, message: MESSAGES.cannotRead(reason) };
}

/** What a memory file's bytes gave, as cached: everything {@link FileRead} has but the bytes. */
export type ParsedFile = Omit<FileRead, "bytes">;

/**
 * Parses of memory files, per limits (a parse depends on the file's bytes and
 * on fileMaxBytes, textMaxChars and titleMaxChars). 50,000 entries hold a home
 * of 1,000 workspaces × 50 memories; an entry is the parse of one file (its
 * text at most fileMaxBytes), so the cache stays within the size of the home.
 */
const parses = new StatCache<ParsedFile>(50_000);

function cacheKey(path: string, limits: Limits): string {
  return `${limits.fileMaxBytes}:${limits.textMaxChars}:${limits.titleMaxChars}:${path}`;
}

/** How often a parse came from the cache (`hits`) or from the file (`parsed`), since the last clear. */
export const parseCacheStats = { hits: 0, parsed: 0 };

/** Forgets every cached parse and zeroes the counters (tests, the bench's cold runs). */
export function clearParseCache(): void {
  parses.clear();
  parseCacheStats.hits = 0;
  parseCacheStats.parsed = 0;
}

function tooLarge(st: { size: number; mtimeMs: number }, limits: Limits): ParsedFile {
  return {
    size: st.size,
    mtimeMs: st.mtimeMs,
    parse: { ok: false, message: MESSAGES.fileTooLarge(limits.fileMaxBytes) },
  };
}

/**
 * The cached parse of a memory file while its stat is unchanged, from one
 * `lstat` (`stat` with `follow`, for a symlink already proven to stay inside
 * the home). Undefined on a miss, or when the path is not a plain file now:
 * the caller then reads it with {@link readMemoryFile}, which handles every
 * case. Synchronous on purpose: a promise-based `lstat` costs several times
 * the syscall, and this is one syscall on a path the caller has just listed.
 */
export function cachedMemoryParse(path: string, limits: Limits, follow = false): ParsedFile | undefined {
  const key = cacheKey(path, limits);
  if (!parses.has(key)) return undefined; // never read (a cold cache): the read's own fstat is enough
  let st: BigIntStats | undefined;
  try {
    st = (follow ? statSync : lstatSync)(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (!st?.isFile()) return undefined;
  const hit = parses.get(key, st);
  if (hit) parseCacheStats.hits++;
  return hit;
}

/**
 * Reads and checks one memory file: size first (without reading a file over
 * the limit), then readability, then the parse. `noFollow` opens with
 * O_NOFOLLOW (for entries the folder listing showed as plain files). Returns
 * null when the file does not exist. The bytes are always read (callers hash
 * them); the parse comes from the cache when the open file's stat matches it.
 */
export async function readMemoryFile(path: string, limits: Limits, noFollow = true): Promise<FileRead | null> {
  // taken before the stat: a change after this moment cannot hide behind a cached entry
  const startedAt = settleClock.now();
  let handle: fsp.FileHandle;
  try {
    // O_NONBLOCK: a FIFO, socket or device named like a memory must not block the open (see lib/fs/open-regular.ts)
    handle = await fsp.open(path, constants.O_RDONLY | constants.O_NONBLOCK | (noFollow ? constants.O_NOFOLLOW : 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    const stat = await fsp.stat(path).catch(() => null);
    if (stat?.isFile() && stat.size > limits.fileMaxBytes) return { bytes: null, ...tooLarge(stat, limits) };
    return { bytes: null, size: stat?.size ?? 0, mtimeMs: stat?.mtimeMs ?? 0, parse: readProblem(error, path) };
  }
  try {
    const big = await handle.stat({ bigint: true });
    const stat = { size: Number(big.size), mtimeMs: Number(big.mtimeNs) / 1e6 };
    if (big.isDirectory())
      return { bytes: null, size: 0, mtimeMs: stat.mtimeMs, parse: readProblem({ code: "EISDIR" }, path) };
    if (!big.isFile()) {
      const parse = {
        ok: false as const,
        message: MESSAGES.cannotRead(`it is ${describeFileKind(big)}, not a regular file.`),
      };
      return { bytes: null, size: 0, mtimeMs: stat.mtimeMs, parse };
    }
    const key = cacheKey(path, limits);
    if (stat.size > limits.fileMaxBytes) {
      const read = tooLarge(stat, limits);
      if (big.isFile()) parses.set(key, big, startedAt, read);
      return { bytes: null, ...read };
    }
    let bytes: Uint8Array;
    try {
      bytes = await handle.readFile();
    } catch (error) {
      return { bytes: null, size: stat.size, mtimeMs: stat.mtimeMs, parse: readProblem(error, path) };
    }
    const cached = bytes.length === stat.size ? parses.get(key, big) : undefined;
    if (cached) {
      parseCacheStats.hits++;
      return { bytes, ...cached };
    }
    parseCacheStats.parsed++;
    const read: ParsedFile = { size: bytes.length, mtimeMs: stat.mtimeMs, parse: parseMemoryFile(bytes, limits) };
    // a file that grew or shrank while it was read is not cached under the stat taken before
    if (big.isFile() && bytes.length === stat.size) parses.set(key, big, startedAt, read);
    return { bytes, ...read };
  } finally {
    await handle.close();
  }
}

/** A memory's sizes, as the list and the token check use them. */
export interface MemoryCounts {
  titleChars: number;
  textChars: number;
  tokens: number;
  /** Code points of its block in a payload: `## <title>\n<text>`. */
  blockChars: number;
}

const counts = new WeakMap<ParsedMemory, MemoryCounts>();

/** The sizes of a parsed memory, counted once per parse (cached parses are shared, so are their counts). */
export function countsOf(parse: ParsedMemory): MemoryCounts {
  let c = counts.get(parse);
  if (!c) {
    const titleChars = countCodePoints(parse.title);
    const textChars = countCodePoints(parse.text);
    c = { titleChars, textChars, tokens: Math.ceil(textChars / 4), blockChars: titleChars + textChars + 4 };
    counts.set(parse, c);
  }
  return c;
}

/** Hex SHA-256 of bytes: the token of optimistic concurrency and of `state.json`. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Runs `fn` over `items` with at most `limit` at a time, keeping order. */
export async function mapPool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
