import { readSync } from "node:fs";
import type { ByteSource } from "./frames";

/**
 * A read-only, positional view of a file for the frame walker: keeps one
 * buffer of file bytes and reads a fresh one when asked for bytes outside it
 * (never reusing a buffer, so earlier slices stay valid while they are decoded).
 * The first read is small so the first lines of a huge log come back fast.
 */
export class FileWindow implements ByteSource {
  private buf: Buffer = Buffer.alloc(0);
  private start = 0;
  private nextChunk: number;

  constructor(
    private readonly fd: number,
    /** The file's size when reading began; bytes appended later are not seen. */
    readonly size: number,
    firstChunk = 256 * 1024,
    private readonly maxChunk = 8 * 1024 * 1024,
  ) {
    this.nextChunk = firstChunk;
  }

  bytes(pos: number, n: number): Buffer {
    const end = Math.min(pos + n, this.size);
    if (pos >= this.start && end <= this.start + this.buf.length) {
      return this.buf.subarray(pos - this.start, end - this.start);
    }
    const length = Math.min(Math.max(this.nextChunk, end - pos), this.size - pos);
    this.nextChunk = Math.min(this.nextChunk * 4, this.maxChunk);
    this.buf = readRange(this.fd, pos, pos + Math.max(length, 0));
    this.start = pos;
    return this.buf.subarray(0, end - pos);
  }

  /** The bytes [start, end): a slice of the current buffer when it holds them, else a fresh read. */
  range(start: number, end: number): Buffer {
    if (start >= this.start && end <= this.start + this.buf.length) {
      return this.buf.subarray(start - this.start, end - this.start);
    }
    return readRange(this.fd, start, end);
  }
}

/** Reads [start, end) of a file into a new buffer (shorter if the file is). */
export function readRange(fd: number, start: number, end: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.max(end - start, 0));
  let done = 0;
  while (done < buf.length) {
    const n = readSync(fd, buf, done, buf.length - done, start + done);
    if (n === 0) break;
    done += n;
  }
  return done === buf.length ? buf : buf.subarray(0, done);
}
