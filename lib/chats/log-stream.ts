import { closeSync } from "node:fs";
import { isOdaError, OdaError } from "../errors";
import { openRegularSync } from "../fs/open-regular";
import { formatBytes, type LogLimits, logLimits } from "./limits";
import { withRawLog } from "./problem";
import { type DecodedStart, decodeZstd } from "./zstd/decode";
import { readRange } from "./zstd/file-window";
import { FrameError } from "./zstd/frames";

/**
 * The decompressed bytes of one log, plain or zstd, as a stream of chunks,
 * opened read-only (the reader never opens a file for writing).
 */

/** Where decoding may start: a frame boundary (zstd) that is also a line start. */
export interface SeekPoint {
  /** Complete lines before this point. */
  line: number;
  /** Offset in the decompressed stream. */
  dec: number;
  /** Offset in the file (equal to `dec` for plain logs). */
  comp: number;
}

/** A piece of decompressed log. `seekable` chunks start at a frame boundary. */
export interface LogChunk {
  type: "data";
  data: Buffer;
  /** Decompressed offset of `data[0]`. */
  dec: number;
  /** The file offset of the frame this chunk starts, when it starts one (plain: always). */
  comp: number | null;
}

/** The end of the stream: where complete data ends in the file, and a cut frame if any. */
export interface LogEnd {
  type: "end";
  /** File size seen when reading began. */
  size: number;
  /** File offset after the last complete frame (plain: the file size). */
  completeEnd: number;
  cut: { offset: number; decoded: number } | null;
}

/** Options for `streamLog`. */
export interface StreamLogOptions {
  compressed: boolean;
  /** Start here instead of at the beginning. */
  from?: SeekPoint;
  /** The limits to read under (default: `logLimits()`). */
  limits?: LogLimits;
  /** Decoded bytes a zstd batch aims at (`DecodeZstdOptions.batchOutput`). */
  batchOutput?: number;
  /**
   * Read only the file the caller read before: opened without following a link, it must have this inode
   * and at least this size, or the stream is refused (`conflict`) before a byte is read.
   */
  expect?: { ino: number; size: number };
  /**
   * Read through this descriptor, opened by the caller (who closes it), up to the size it saw at the
   * open: every read of one command goes through one open, so a file swapped or cut between two reads
   * cannot mix two files without notice (issue 24).
   */
  open?: OpenLog;
  /** The log's first frames as already decoded (`LogHead.frame`): used when the stream starts at the log's start. */
  first?: DecodedStart | null;
}

/** A log opened once for several reads (`openLogFile`). */
export interface OpenLog {
  fd: number;
  size: number;
  ino: number;
}

/**
 * Decoded bytes each zstd batch aims at when a log is read through in bulk (the
 * doctor, a bundle's scan and rewrite): half the reader's default. Each
 * batch is native memory freed only at a later garbage collection; on the 1 GB
 * bench log a bundle's peak RSS falls with it, for a slightly slower read.
 */
export const BULK_BATCH_OUTPUT = 1024 * 1024;

/**
 * Chunks are passed on in pieces of at most this size, with a turn of the event
 * loop every `SLICE_MS` of work (the caller's included: it runs between two
 * pieces). A reader on the server's main thread (the index refresh) then never
 * holds it for long, even on a newline bomb's million lines per MiB.
 */
const PIECE = 64 * 1024;
const SLICE_MS = 10;
const PLAIN_FIRST = 256 * 1024;
const PLAIN_CHUNK = 4 * 1024 * 1024;

/**
 * Opens a log read-only, without blocking on a FIFO or the like (refused, like
 * every log problem, with the raw log note); the caller closes the descriptor.
 */
export function openLogFile(
  path: string,
  options?: { noFollow?: boolean },
): { fd: number; size: number; ino: number; mtimeMs: number } {
  let opened: ReturnType<typeof openRegularSync>;
  try {
    opened = openRegularSync(path, options);
  } catch (error) {
    if (isOdaError(error))
      throw new OdaError(error.code, withRawLog(error.message, path), {
        cause: error,
        data: { paths: [path], rawLog: path },
      });
    throw error;
  }
  const { fd, stat: st } = opened;
  return { fd, size: st.size, ino: st.ino, mtimeMs: st.mtimeMs };
}

/**
 * Streams a log's decompressed bytes. Decoding problems become an `OdaError`
 * ("unusable") whose message ends with the raw log note, thrown after every
 * chunk before the problem was yielded.
 */
export async function* streamLog(path: string, options: StreamLogOptions): AsyncGenerator<LogChunk | LogEnd> {
  const own = !options.open;
  const { fd, size, ino } = options.open ?? openLogFile(path, { noFollow: !!options.expect });
  if (options.expect && (ino !== options.expect.ino || size < options.expect.size)) {
    if (own) closeSync(fd);
    throw new OdaError("conflict", withRawLog(`${path} is not the file that was read before.`, path));
  }
  let sliceStart = performance.now();
  const turn = async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    await new Promise((done) => setImmediate(done));
    sliceStart = performance.now();
  };
  try {
    const from = options.from ?? { line: 0, dec: 0, comp: 0 };
    const limits = options.limits ?? logLimits();
    if (!options.compressed) {
      let chunk = PLAIN_FIRST;
      for (let at = from.comp; at < size; at += chunk, chunk = PLAIN_CHUNK) {
        if (at + Math.min(chunk, size - at) > limits.maxDecodedBytes) {
          const error = new FrameError("", at, "cap", at);
          throw new OdaError("unusable", frameErrorSentence(error, path, limits), { cause: error });
        }
        const data = readRange(fd, at, Math.min(at + chunk, size));
        for (let p = 0; p < data.length; p += PIECE) {
          yield { type: "data", data: data.subarray(p, p + PIECE), dec: at + p, comp: at + p };
          await turn();
        }
      }
      yield { type: "end", size, completeEnd: size, cut: null };
      return;
    }
    let dec = from.dec;
    try {
      for await (const item of decodeZstd(fd, size, {
        start: from.comp,
        decodedBefore: from.dec,
        limits,
        batchOutput: options.batchOutput,
        first: from.comp === 0 && options.first ? options.first : undefined,
      })) {
        if (item.type === "end") {
          yield { type: "end", size, completeEnd: item.completeEnd, cut: item.cut };
          return;
        }
        for (let p = 0; p < item.data.length; p += PIECE) {
          yield {
            type: "data",
            data: item.data.subarray(p, p + PIECE),
            dec: dec + p,
            comp: p ? null : item.frameOffset,
          };
          await turn();
        }
        dec += item.data.length;
      }
    } catch (error) {
      if (error instanceof FrameError)
        throw new OdaError("unusable", frameErrorSentence(error, path, limits), { cause: error });
      throw error;
    }
  } finally {
    if (own) closeSync(fd);
  }
}

/** The sentence for a zstd log that cannot be decoded past some point (a limit met included). */
export function frameErrorSentence(error: FrameError, path: string, limits: LogLimits = logLimits()): string {
  const stopped = `reading stopped at byte ${error.offset} of the file (decoded byte ${error.decoded}); every line before it is kept.`;
  const reason =
    error.kind === "window"
      ? `The log cannot be read: ${error.message}.`
      : error.kind === "cap"
        ? `${path} decodes to more than ${limits.maxDecodedBytes} bytes (${formatBytes(limits.maxDecodedBytes)}), the limit for one log; ${stopped}`
        : error.kind === "ratio"
          ? `${path} decodes to more than ${limits.maxRatio} times its compressed size (${error.decoded} bytes from its first ${error.offset} bytes), as a zstd bomb does; ${stopped}`
          : `The log cannot be read past byte ${error.offset}: ${error.message}.`;
  return withRawLog(reason, path);
}
