import { createHash, type Hash } from "node:crypto";
import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";

/**
 * One append-only file holding every rewritten log of a bundle, and every
 * small file read for it (settings, memories, checkpoints, locks), one after
 * the other: 10,000 chats' files held as buffers until the archive was written
 * took some 40 MiB of the bundle's memory. A file per log cost an open, a close and an unlink each: for 10,000
 * small chats the unlinks alone took seconds. Each log is a range of the spool,
 * hashed while it is written (it is never read back to be checked), and a log
 * that came out unchanged is cut off again.
 */

/** Bytes at the end of a log a checkpoint's tail hash covers (`hashLogTail`). */
const TAIL_BYTES = 4096;

/** One log being written into the spool. */
export interface SpoolWriter {
  write(data: Buffer): void;
}

/** A finished range of the spool: where it starts, its size, its SHA-256 and that of its last 4 KiB. */
export interface SpoolRange {
  start: number;
  size: number;
  sha256: string;
  tailSha256: string;
}

/** The spool file of one bundle (created new; removed with the bundle's temporary folder). */
export class Spool {
  private readonly fd: number;
  private end = 0;
  private open: { start: number; hash: Hash; tail: Buffer[]; tailBytes: number } | null = null;

  constructor(readonly path: string) {
    this.fd = openSync(path, "wx", 0o600);
  }

  /** Starts a new range at the end of the spool. */
  begin(): SpoolWriter {
    const range = { start: this.end, hash: createHash("sha256"), tail: [] as Buffer[], tailBytes: 0 };
    this.open = range;
    return {
      write: (data: Buffer) => {
        if (this.open !== range) throw new Error("a spool range was written after it was finished");
        writeSync(this.fd, data, 0, data.length, this.end);
        this.end += data.length;
        range.hash.update(data);
        range.tail.push(data);
        range.tailBytes += data.length;
        // Only the last 4 KiB are kept for the tail hash: drop whole pieces that lie before them.
        while (range.tail.length > 1 && range.tailBytes - (range.tail[0] as Buffer).length >= TAIL_BYTES)
          range.tailBytes -= (range.tail.shift() as Buffer).length;
      },
    };
  }

  /** Ends the open range and returns it. */
  finish(): SpoolRange {
    const range = this.open;
    if (!range) throw new Error("no spool range is open");
    this.open = null;
    const tail = Buffer.concat(range.tail);
    return {
      start: range.start,
      size: this.end - range.start,
      sha256: range.hash.digest("hex"),
      tailSha256: createHash("sha256")
        .update(tail.subarray(Math.max(0, tail.length - TAIL_BYTES)))
        .digest("hex"),
    };
  }

  /** Appends one whole file's bytes as a range of its own. */
  add(data: Buffer): SpoolRange {
    this.begin().write(data);
    return this.finish();
  }

  /** Drops the open range: the spool ends where it began. */
  discard(): void {
    const range = this.open;
    if (!range) return;
    this.open = null;
    this.end = range.start;
    ftruncateSync(this.fd, this.end);
  }

  close(): void {
    closeSync(this.fd);
  }
}
