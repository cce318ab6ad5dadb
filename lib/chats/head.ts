import { closeSync } from "node:fs";
import { openRegularSync, readFileStartSync } from "../fs/open-regular";
import { readFirstLine } from "./details";
import { hashBytes, sha256Hex } from "./hash";
import { parseObject } from "./lines";
import type { OpenLog } from "./log-stream";
import type { DecodedStart } from "./zstd/decode";
import { readRange } from "./zstd/file-window";
import { decodeFrameBatched } from "./zstd/frame-batch";
import { type ByteSource, type FrameInfo, walkFrame } from "./zstd/frames";

/**
 * The chat list's fast path: one read of a log's first 16 KiB gives its first
 * line (decoding only the first frame; the native decoder is far faster than
 * fzstd here, whose one-shot call allocates a window-sized buffer) and, for
 * small logs, the bytes the checkpoint's tail hash covers. Anything unusual
 * falls back to the streaming reader.
 */

const HEAD_BYTES = 16 * 1024;
const SMALL_FRAME = 4 * 1024 * 1024;

/** A log's first bytes and its size, read with one open. */
export interface HeadBytes {
  head: Buffer;
  size: number;
}

/** A log's first line and a tail hasher that reuses the bytes already read. */
export interface LogHead {
  first: Record<string, unknown> | null;
  size: number;
  /** sha256 of the last min(bytes, 4096) bytes before `bytes`. */
  hashTail(bytes: number): string;
  /**
   * The log's first data frame (and any skippable ones before it) as decoded for the first line, when it was:
   * a reader of the whole log starts after it (`streamLog`'s `first`), so a one-frame log is decoded once.
   */
  frame: DecodedStart | null;
}

/**
 * First lines already decoded, keyed by a hash of the first frame's bytes (a
 * log only grows, so its first frame never changes; a replaced file has other
 * bytes). Repeated listings in one process (a server) skip the decode; a
 * one-shot listing (the CLI) asks for no memo: it would only hash every frame
 * and hold every header to the end.
 */
const firstLines = new Map<string, Record<string, unknown> | null>();
const MEMO_LIMIT = 200_000;

/** Scratch space for the head read; copied out, so listing 10,000 chats does not allocate 10,000 × 16 KiB. */
const scratch = Buffer.allocUnsafe(HEAD_BYTES);

/**
 * Reads a log's first bytes and its size: open, one read, close; `fstat` only
 * when the read does not prove the size (`readFileStartSync`). Never blocks on
 * a FIFO or the like, which is refused with its sentence. (Were a file system
 * ever to return a short read before the end, the size would be too small: a
 * checkpoint is then judged ahead of the log and the details rebuilt from it,
 * never served wrongly.)
 */
export function readHeadBytes(path: string, open?: OpenLog): HeadBytes {
  if (open) return { head: readRange(open.fd, 0, Math.min(HEAD_BYTES, open.size)), size: open.size };
  const { bytes, size } = readFileStartSync(path, scratch);
  return { head: Buffer.from(scratch.subarray(0, bytes)), size };
}

/** The head bytes as the frame walker reads them. */
class HeadSource implements ByteSource {
  readonly size: number;
  constructor(private readonly head: Buffer) {
    this.size = head.length;
  }
  bytes(pos: number, n: number): Buffer {
    return this.head.subarray(pos, pos + n);
  }
}

/**
 * The first line from the head bytes; `undefined` when the fast path cannot tell (read the log instead). The
 * first frame's decode, when made, goes to `keep`.
 */
async function firstLineFromHead(
  head: Buffer,
  size: number,
  compressed: boolean,
  memo: boolean,
  keep: (frame: DecodedStart) => void,
): Promise<Record<string, unknown> | null | undefined> {
  if (!compressed) {
    const nl = head.indexOf(10);
    return nl < 0 ? undefined : parseObject(head.toString("utf8", 0, nl));
  }
  if (firstLines.size > MEMO_LIMIT) firstLines.clear();
  const src = new HeadSource(head);
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
      const key = memo ? hashBytes("sha1", bytes, "base64") : null;
      const known = key === null ? undefined : firstLines.get(key);
      if (known !== undefined) return known;
      let out: Buffer;
      try {
        // Batched with the other chats' first frames asked for meanwhile: one native call for many.
        out = await decodeFrameBatched(bytes, frame.bound);
      } catch {
        return undefined;
      }
      keep({ end: pos + frame.length, data: out });
      const nl = out.indexOf(10);
      if (nl < 0) return undefined;
      const first = parseObject(out.toString("utf8", 0, nl));
      if (key !== null) firstLines.set(key, first);
      return first;
    }
    pos += frame.length;
  }
  return size === 0 ? null : undefined;
}

/**
 * The first line and tail hasher of a log whose head was read with
 * `readHeadBytes`; `memo`: keep the decoded first line for the next listing.
 */
export async function decodeLogHead(
  path: string,
  compressed: boolean,
  bytes: HeadBytes,
  memo = false,
  open?: OpenLog,
): Promise<LogHead> {
  const { head, size } = bytes;
  let frame: DecodedStart | null = null;
  const fast = await firstLineFromHead(head, size, compressed, memo, (f) => {
    frame = f;
  });
  const first = fast === undefined ? await readFirstLine(path, compressed, open) : fast;
  const hashTail = (end: number) => {
    if (end <= head.length) return sha256Hex(head.subarray(Math.max(0, end - 4096), end));
    if (open) return sha256Hex(readRange(open.fd, Math.max(0, end - 4096), end));
    const { fd } = openRegularSync(path);
    try {
      return sha256Hex(readRange(fd, Math.max(0, end - 4096), end));
    } finally {
      closeSync(fd);
    }
  };
  return { first, size, hashTail, frame };
}
