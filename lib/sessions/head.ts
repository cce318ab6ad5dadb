import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync } from "node:fs";
import { decompress as decompressNative } from "@mongodb-js/zstd";
import { readFirstLine } from "./details";
import { parseObject } from "./lines";
import { readRange } from "./zstd/file-window";
import { type FrameInfo, walkFrame } from "./zstd/frames";

/**
 * The chat list's fast path: one read of a log's first 64 KiB gives its first
 * line (decoding only the first frame; the native decoder is far faster than
 * fzstd here, whose one-shot call allocates a window-sized buffer) and, for
 * small logs, the bytes the checkpoint's tail hash covers. Anything unusual falls back to the streaming reader.
 */

const HEAD_BYTES = 16 * 1024;
const SMALL_FRAME = 4 * 1024 * 1024;

/** A log's first line and a tail hasher that reuses the bytes already read. */
export interface LogHead {
  first: Record<string, unknown> | null;
  size: number;
  /** sha256 of the last min(bytes, 4096) bytes before `bytes`. */
  hashTail(bytes: number): string;
}

/**
 * First lines already decoded, keyed by a hash of the first frame's bytes (a
 * log only grows, so its first frame never changes; a replaced file has other
 * bytes). Repeated listings skip the decode.
 */
const firstLines = new Map<string, Record<string, unknown> | null>();
const MEMO_LIMIT = 200_000;

async function firstLineFromHead(
  head: Buffer,
  size: number,
  compressed: boolean,
): Promise<Record<string, unknown> | null | undefined> {
  if (firstLines.size > MEMO_LIMIT) firstLines.clear();
  const memo = firstLines;
  if (!compressed) {
    const nl = head.indexOf(10);
    return nl < 0 ? undefined : parseObject(head.subarray(0, nl).toString("utf8"));
  }
  const src = { size: head.length, bytes: (p: number, n: number) => head.subarray(p, p + n) };
  let pos = 0;
  while (pos < head.length) {
    let frame: FrameInfo;
    try {
      frame = walkFrame(src, pos);
    } catch {
      return undefined;
    }
    if (frame.cut || frame.bound > SMALL_FRAME) return undefined;
    if (frame.kind === "data") {
      const bytes = head.subarray(pos, pos + frame.length);
      const key = createHash("sha1").update(bytes).digest("base64");
      const known = memo?.get(key);
      if (known !== undefined) return known;
      let out: Uint8Array;
      try {
        out = await decompressNative(bytes);
      } catch {
        return undefined;
      }
      const nl = out.indexOf(10);
      if (nl < 0) return undefined;
      const first = parseObject(Buffer.from(out.buffer, out.byteOffset, nl).toString("utf8"));
      memo?.set(key, first);
      return first;
    }
    pos += frame.length;
  }
  return size === 0 ? null : undefined;
}

/** Reads a log's head (read-only). */
export async function readLogHead(path: string, compressed: boolean): Promise<LogHead> {
  const fd = openSync(path, "r");
  let head: Buffer;
  let size: number;
  try {
    size = fstatSync(fd).size;
    head = readRange(fd, 0, Math.min(size, HEAD_BYTES));
  } finally {
    closeSync(fd);
  }
  const fast = await firstLineFromHead(head, size, compressed);
  const first = fast === undefined ? await readFirstLine(path, compressed) : fast;
  const hashTail = (bytes: number) => {
    if (bytes <= head.length)
      return createHash("sha256")
        .update(head.subarray(Math.max(0, bytes - 4096), bytes))
        .digest("hex");
    const fd2 = openSync(path, "r");
    try {
      return createHash("sha256")
        .update(readRange(fd2, Math.max(0, bytes - 4096), bytes))
        .digest("hex");
    } finally {
      closeSync(fd2);
    }
  };
  return { first, size, hashTail };
}
