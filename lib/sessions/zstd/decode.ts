import { decompress as decompressNative } from "@mongodb-js/zstd";
import { Decompress as StreamDecompress } from "fzstd";
import { FileWindow } from "./file-window";
import { FrameError, type FrameInfo, walkFrame } from "./frames";

/**
 * Streams the decompressed bytes of a zstd log with bounded memory.
 *
 * Complete frames are decoded by the native decoder (`@mongodb-js/zstd` 1.2.2,
 * one-shot only) in batches whose output is bounded from the frame headers
 * before decoding. Two cases the native one-shot call cannot handle:
 * - a frame whose output bound exceeds the batch budget (one huge frame, as
 *   the `zstd` tool writes) is streamed block by block with `fzstd`, a pure-JS
 *   streaming decoder (it does not verify the content checksum);
 * - a cut-off last frame: its complete blocks are re-framed (new header
 *   without content size or checksum, last-block flag on the last complete
 *   block) and decoded natively, or streamed with `fzstd` when large; the
 *   bytes present of a cut raw block follow, as `zstd -dc` prints them.
 */

/** Defaults: the streaming cap on output, and the output bound of one native batch. */
export const DEFAULT_MAX_OUTPUT = 4 * 1024 ** 3;
const BATCH_BOUND = 64 * 1024 * 1024;
/** Compressed bytes of the first batch: small, so the first lines of a huge log come back fast. */
const FIRST_BATCH = 64 * 1024;
const MAX_BATCH = 8 * 1024 * 1024;
/**
 * Later batches aim at about this much output: seek points (batch starts) stay close enough that 100 lines
 * anywhere decode in milliseconds, and each native call carries enough work. On a 1 GB log with zod
 * loaded (a heap like a server's), 6 and 8 MiB both decode about 15% faster than 4 MiB (fewer calls and
 * fewer collections triggered by the decoded buffers' memory) and 16 MiB is slower again; peak RSS grows
 * with the batch (+80 MiB at 4, +125 at 6, +140 at 8), so 6.
 */
const TARGET_OUTPUT = 6 * 1024 * 1024;
const STREAM_PIECE = 1024 * 1024;

/** What `decodeZstd` yields: decompressed bytes, then one `end` item. */
export type ZstdItem =
  | {
      type: "data";
      data: Buffer;
      /** Compressed offset of the frame this chunk starts in, when it starts at a frame boundary. */
      frameOffset: number | null;
    }
  | {
      type: "end";
      /** Compressed offset just after the last complete frame. */
      completeEnd: number;
      /** The cut-off last frame, if any: its offset and how many bytes were decoded from it. */
      cut: { offset: number; decoded: number } | null;
    };

/** Options for `decodeZstd`. */
export interface DecodeZstdOptions {
  /** Compressed offset of a frame boundary to start at (default 0). */
  start?: number;
  /** Refuse output beyond this many bytes (counted from `start`). */
  maxOutput?: number;
}

/**
 * Decodes a zstd file from `fd` (read-only, `size` bytes as seen at the start).
 * Throws `FrameError` (after yielding everything before it) for damaged
 * frames, a window over 2^27 or output over `maxOutput`.
 */
export async function* decodeZstd(fd: number, size: number, options: DecodeZstdOptions = {}): AsyncGenerator<ZstdItem> {
  const win = new FileWindow(fd, size);
  const maxOutput = options.maxOutput ?? DEFAULT_MAX_OUTPUT;
  let pos = options.start ?? 0;
  let produced = 0;
  let budget = FIRST_BATCH;
  const count = (n: number, at: number) => {
    produced += n;
    if (produced > maxOutput) throw new FrameError(`the log decompresses to more than ${maxOutput} bytes`, at, "cap");
  };
  /** Groups the complete frames from `pos` into one batch, up to the budget or a frame that needs other handling. */
  const plan = (): Batch => {
    const batchStart = pos;
    const frames: FrameInfo[] = [];
    let bound = 0;
    let stop: FrameInfo | FrameError | null = null;
    while (pos < size) {
      let frame: FrameInfo;
      try {
        frame = walkFrame(win, pos);
      } catch (error) {
        if (!(error instanceof FrameError)) throw error;
        stop = error;
        break;
      }
      if (frame.cut || frame.bound > BATCH_BOUND) {
        stop = frame;
        break;
      }
      if (frame.contentSize !== null && produced + bound + frame.contentSize > maxOutput) {
        stop = new FrameError(`the log decompresses to more than ${maxOutput} bytes`, frame.offset, "cap");
        break;
      }
      if (frames.length && (bound + frame.bound > BATCH_BOUND || pos + frame.length - batchStart > budget)) break;
      frames.push(frame);
      bound += frame.bound;
      pos += frame.length;
    }
    return { batchStart, end: pos, frames, stop, job: frames.length ? decodeBatch(win, frames) : null };
  };
  // One batch is decoded ahead on the thread pool while the caller works on the previous one.
  let next: Batch | null = pos < size ? plan() : null;
  while (next) {
    const cur: Batch = next;
    next = !cur.stop && pos < size ? plan() : null;
    if (cur.job) {
      const { chunks, error } = await cur.job;
      let out = 0;
      for (const data of chunks) {
        out += data.chunk.length;
        count(data.chunk.length, cur.batchStart);
        yield { type: "data", data: data.chunk, frameOffset: data.frameOffset };
      }
      if (error) throw error;
      const ratio = Math.max(out, 1) / Math.max(cur.end - cur.batchStart, 1);
      budget = Math.round(Math.min(MAX_BATCH, Math.max(FIRST_BATCH, TARGET_OUTPUT / ratio)));
    }
    const stop = cur.stop;
    if (stop instanceof FrameError) throw stop;
    if (stop?.cut) {
      let decoded = 0;
      for await (const data of decodeCutFrame(win, stop)) {
        count(data.length, stop.offset);
        decoded += data.length;
        yield { type: "data", data, frameOffset: decoded === data.length ? stop.offset : null };
      }
      yield { type: "end", completeEnd: stop.offset, cut: { offset: stop.offset, decoded } };
      return;
    }
    if (stop) {
      let first = true;
      for (const data of streamFrame(win, stop.offset, stop.offset + stop.length)) {
        count(data.length, stop.offset);
        yield { type: "data", data, frameOffset: first ? stop.offset : null };
        first = false;
      }
      pos = stop.offset + stop.length;
      next = pos < size ? plan() : null;
    }
  }
  yield { type: "end", completeEnd: pos, cut: null };
}

/** A batch of complete frames and its decode, started when the batch is planned. */
interface Batch {
  batchStart: number;
  end: number;
  frames: FrameInfo[];
  stop: FrameInfo | FrameError | null;
  job: Promise<DecodedBatch> | null;
}

/** A batch's output; `error` names the damaged frame after the chunks before it. Never rejects. */
interface DecodedBatch {
  chunks: { chunk: Buffer; frameOffset: number }[];
  error: FrameError | null;
}

/** Decodes complete frames in one native call; on failure, frame by frame to name the damaged one. */
async function decodeBatch(win: FileWindow, frames: FrameInfo[]): Promise<DecodedBatch> {
  const first = frames[0] as FrameInfo;
  const last = frames[frames.length - 1] as FrameInfo;
  try {
    const chunk = await decompressNative(win.range(first.offset, last.offset + last.length));
    return { chunks: [{ chunk, frameOffset: first.offset }], error: null };
  } catch {
    // Find the damaged frame and keep everything before it.
  }
  const chunks: DecodedBatch["chunks"] = [];
  for (const frame of frames) {
    try {
      chunks.push({
        chunk: await decompressNative(win.range(frame.offset, frame.offset + frame.length)),
        frameOffset: frame.offset,
      });
    } catch (error) {
      const message = `the zstd frame at byte ${frame.offset} is damaged (${(error as Error).message})`;
      return { chunks, error: new FrameError(message, frame.offset) };
    }
  }
  return { chunks, error: null };
}

/** Streams one frame block by block with fzstd, in pieces of about 1 MiB of output. */
function* streamFrame(win: FileWindow, start: number, end: number, final = true): Generator<Buffer> {
  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const decoder = new StreamDecompress((chunk) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
  });
  const take = () => {
    const out = Buffer.concat(pending);
    pending.length = 0;
    pendingBytes = 0;
    return out;
  };
  for (let at = start; at < end; at += STREAM_PIECE) {
    const piece = win.range(at, Math.min(at + STREAM_PIECE, end));
    try {
      decoder.push(piece, final && at + STREAM_PIECE >= end);
    } catch (error) {
      if (pendingBytes) yield take();
      throw new FrameError(`the zstd frame at byte ${start} is damaged (${(error as Error).message})`, start);
    }
    if (pendingBytes >= STREAM_PIECE) yield take();
  }
  if (pendingBytes) yield take();
}

/** Decodes what can be decoded of a cut-off frame: its complete blocks, then a cut raw block's bytes. */
async function* decodeCutFrame(win: FileWindow, frame: FrameInfo): AsyncGenerator<Buffer> {
  const cut = frame.cut;
  if (!cut || frame.kind !== "data" || !cut.headerComplete) return;
  if (cut.lastBlockAt >= 0) {
    if (frame.bound > BATCH_BOUND) {
      yield* streamFrame(win, frame.offset, cut.blocksEnd, false);
    } else {
      const blocks = Buffer.from(win.range(firstBlockAt(win, frame.offset), cut.blocksEnd));
      const lastAt = cut.lastBlockAt - (cut.blocksEnd - blocks.length);
      blocks[lastAt] = (blocks[lastAt] as number) | 1;
      yield await decompressNative(Buffer.concat([reframeHeader(frame.windowSize), blocks]));
    }
  }
  if (cut.rawTail) yield Buffer.from(win.range(cut.rawTail.start, cut.rawTail.end));
}

/** Offset of the first block header of the frame at `pos` (after its header). */
function firstBlockAt(win: FileWindow, pos: number): number {
  const fhd = win.bytes(pos + 4, 1)[0] as number;
  const single = (fhd >> 5) & 1;
  const fcsFlag = fhd >> 6;
  return pos + 5 + (single ? 0 : 1) + ([0, 1, 2, 4][fhd & 3] as number) + (fcsFlag === 0 ? single : 1 << fcsFlag);
}

/** A frame header with no content size, no checksum and a window of at least `windowSize`. */
function reframeHeader(windowSize: number): Buffer {
  const windowLog = Math.max(10, Math.ceil(Math.log2(Math.max(windowSize, 1))));
  return Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, (windowLog - 10) << 3]);
}
