import { createHash } from "node:crypto";
import { constants, promises as fsp } from "node:fs";
import type { Limits } from "./limits";
import { MESSAGES } from "./messages";
import { type MemoryParse, type MemoryProblem, parseMemoryFile } from "./parse";

/** One memory file as read from disk. */
export interface FileRead {
  /** The bytes, or null when the file could not be read (or was too large to read). */
  bytes: Uint8Array | null;
  size: number;
  mtimeMs: number;
  parse: MemoryParse;
}

function readProblem(error: unknown): MemoryProblem {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === "EACCES" || code === "EPERM"
      ? "permission denied."
      : code === "EISDIR"
        ? "it is a folder."
        : code === "ELOOP"
          ? "it is a symbolic link that changed while it was read."
          : `${code ?? "unknown error"}.`;
  return { ok: false, message: MESSAGES.cannotRead(reason) };
}

/**
 * Reads and checks one memory file: size first (without reading a file over
 * the limit), then readability, then the parse. `noFollow` opens with
 * O_NOFOLLOW (for entries the folder listing showed as plain files). Returns
 * null when the file does not exist.
 */
export async function readMemoryFile(path: string, limits: Limits, noFollow = true): Promise<FileRead | null> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, constants.O_RDONLY | (noFollow ? constants.O_NOFOLLOW : 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    const stat = await fsp.stat(path).catch(() => null);
    if (stat?.isFile() && stat.size > limits.fileMaxBytes) {
      return {
        bytes: null,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        parse: { ok: false, message: MESSAGES.fileTooLarge(limits.fileMaxBytes) },
      };
    }
    return { bytes: null, size: stat?.size ?? 0, mtimeMs: stat?.mtimeMs ?? 0, parse: readProblem(error) };
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory())
      return { bytes: null, size: 0, mtimeMs: stat.mtimeMs, parse: readProblem({ code: "EISDIR" }) };
    if (stat.size > limits.fileMaxBytes) {
      return {
        bytes: null,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        parse: { ok: false, message: MESSAGES.fileTooLarge(limits.fileMaxBytes) },
      };
    }
    let bytes: Uint8Array;
    try {
      bytes = await handle.readFile();
    } catch (error) {
      return { bytes: null, size: stat.size, mtimeMs: stat.mtimeMs, parse: readProblem(error) };
    }
    return { bytes, size: bytes.length, mtimeMs: stat.mtimeMs, parse: parseMemoryFile(bytes, limits) };
  } finally {
    await handle.close();
  }
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
