import { decompress as decompressNative } from "@mongodb-js/zstd";
import { Decompress as StreamDecompress } from "fzstd";
import { type LogLimits, logLimits } from "../limits";
import { FileWindow } from "./file-window";
import { decodeFrameBatched } from "./frame-batch";
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
 *
 * Output is counted against the log limits (`../limits.ts`) piece by piece, so
 * a bomb stops after at most one piece past its cap: a native batch's output is
 * bounded before it is decoded, and `fzstd` is fed whole blocks in groups whose
 * output bound is about 1 MiB (a block's header gives its size before decoding).
 * Decoding gives the event loop a turn every few milliseconds so that jobs
 * sharing a thread (the server's decode worker) take turns.
 */

/** Batches up to this output bound are decoded together with others (`frame-batch.ts`). */
const SHARED_BOUND = 256 * 1024;
/** The output bound of one native batch. */
const BATCH_BOUND = 64 * 1024 * 1024;
/** Compressed bytes of the first batch: small, so the first lines of a huge log come back fast. */
const FIRST_BATCH = 64 * 1024;
const MAX_BATCH = 8 * 1024 * 1024;
/**
 * Later batches aim at about this much output: seek points (batch starts) stay close enough that 100 lines
 * anywhere decode in milliseconds, and each native call carries enough work. Each batch is native memory
 * freed only at a later garbage collection, and a chat's page reads its log several times at once (its
 * summary, line count, activity strip and tool counts): on the 200 MB bench log those four reads together
 * peaked at 280–293 MiB with 2 MiB batches against 353–367 MiB with 6 MiB, in as much CPU (5.1–5.4 s
 * against 5.0–6.1 s), and the line count alone took 1.6–1.7 s of CPU against 1.9–2.8 s (session 41). So 2.
 */
const TARGET_OUTPUT = 2 * 1024 * 1024;
const STREAM_PIECE = 1024 * 1024;
/**
 * The most frames one native batch joins. A batch keeps no object per frame (only its range and bound),
 * and the native call's own cost grows with the frames it walks; without a cap, a log of tiny frames
 * (2-byte raw frames, 11 bytes each: a 2 MB line is a million frames) made one batch of 700,000 frames
 * whose walk kept an object per frame, about 1.1 KB each with the garbage around it (issue 24).
 */
export const MAX_BATCH_FRAMES = 4096;
/** The most output one zstd block can have (RFC 8878 Block_Maximum_Size). */
const BLOCK_MAX = 128 * 1024;
/** Sync work between two turns of the event loop. */
const SLICE_MS = 15;

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

/**
 * Counters for tests and benches: the most frames one native batch joined since the process started.
 * Memory is asserted on the process's peak RSS; this shows the cause stays bounded.
 */
export const stats = { maxBatchFrames: 0 };

/** Options for `decodeZstd`. */
export interface DecodeZstdOptions {
  /** Compressed offset of a frame boundary to start at (default 0). */
  start?: number;
  /** Decoded bytes before `start` (the seek point's offset), counted against the limits. */
  decodedBefore?: number;
  /** The limits (default: `logLimits()`). */
  limits?: LogLimits;
  /**
   * Decoded bytes a batch aims at (default 2 MiB). A reader that goes through a whole log once and keeps
   * nothing (a support bundle) gives less: each batch's output is native memory freed only at a later
   * garbage collection, so the peak grows with it.
   */
  batchOutput?: number;
  /**
   * The frames from `start` to `end`, already decoded to `data` (the head's decode, `head.ts`): passed on under
   * the same limits as a batch of them, not read or decoded again (a short log is decoded once).
   */
  first?: DecodedStart;
}

/** The first frames of a log as already decoded: from the stream's start to `end`, giving `data`. */
export interface DecodedStart {
  end: number;
  data: Buffer;
}

/**
 * Decodes a zstd file from `fd` (read-only, `size` bytes as seen at the start).
 * Throws `FrameError` (after yielding everything before it) for damaged
 * frames, a window over 2^27, output over `maxDecodedBytes` (kind "cap") or
 * output over `maxRatio` × the compressed bytes read past `ratioFloor` (kind
 * "ratio"); a cap's `offset` is the file offset where reading stopped and its
 * `decoded` the decoded offset.
 */
export async function* decodeZstd(fd: number, size: number, options: DecodeZstdOptions = {}): AsyncGenerator<ZstdItem> {
  const win = new FileWindow(fd, size);
  const limits = options.limits ?? logLimits();
  let pos = options.start ?? 0;
  let produced = options.decodedBefore ?? 0;
  let budget = FIRST_BATCH;
  const target = options.batchOutput ?? TARGET_OUTPUT;
  let sliceStart = performance.now();
  /**
   * Passes on decoded bytes with `readTo` compressed bytes read, up to a limit: the bytes within it are
   * yielded (so every line before the stop stays readable), then the stop is thrown.
   */
  function* within(data: Buffer, frameOffset: number | null, readTo: number): Generator<ZstdItem> {
    const ratioBound = Math.max(limits.ratioFloor, limits.maxRatio * readTo);
    const fit = Math.min(limits.maxDecodedBytes, ratioBound) - produced;
    if (data.length <= fit) {
      produced += data.length;
      yield { type: "data", data, frameOffset };
      return;
    }
    if (fit > 0) {
      produced += fit;
      yield { type: "data", data: data.subarray(0, fit), frameOffset };
    }
    throw limits.maxDecodedBytes <= ratioBound
      ? capError(limits.maxDecodedBytes, readTo, produced, "cap")
      : capError(limits.maxRatio, readTo, produced, "ratio");
  }
  const turn = async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    await new Promise((done) => setImmediate(done));
    sliceStart = performance.now();
  };
  /** Groups the complete frames from `pos` into one batch, up to the budget or a frame that needs other handling. */
  const plan = (): Batch => {
    const batchStart = pos;
    let count = 0;
    let bound = 0;
    let stop: FrameInfo | FrameError | null = null;
    while (pos < size && count < MAX_BATCH_FRAMES) {
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
      if (frame.contentSize !== null && produced + bound + frame.contentSize > limits.maxDecodedBytes) {
        stop = capError(limits.maxDecodedBytes, frame.offset, produced + bound, "cap");
        break;
      }
      if (count && (bound + frame.bound > BATCH_BOUND || pos + frame.length - batchStart > budget)) break;
      count++;
      bound += frame.bound;
      pos += frame.length;
    }
    stats.maxBatchFrames = Math.max(stats.maxBatchFrames, count);
    const job = count ? decodeBatch(win, batchStart, pos, bound) : null;
    return { batchStart, end: pos, stop, job };
  };
  const first = options.first;
  // Only when within every limit: a decode that meets one is left to the batches, which stop where they stop.
  const fits = (f: DecodedStart) =>
    f.data.length <= Math.min(limits.maxDecodedBytes, Math.max(limits.ratioFloor, limits.maxRatio * f.end)) - produced;
  if (first && first.end > pos && first.end <= size && fits(first)) {
    yield* within(first.data, pos, first.end);
    pos = first.end;
    await turn();
  }
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
        yield* within(data.chunk, data.frameOffset, cur.end);
        await turn();
      }
      if (error) throw error;
      const ratio = Math.max(out, 1) / Math.max(cur.end - cur.batchStart, 1);
      budget = Math.round(Math.min(MAX_BATCH, Math.max(FIRST_BATCH, target / ratio)));
    }
    const stop = cur.stop;
    if (stop instanceof FrameError) throw stop;
    if (stop?.cut) {
      let decoded = 0;
      for await (const { data, at } of decodeCutFrame(win, stop)) {
        decoded += data.length;
        yield* within(data, decoded === data.length ? stop.offset : null, at);
        await turn();
      }
      yield { type: "end", completeEnd: stop.offset, cut: { offset: stop.offset, decoded } };
      return;
    }
    if (stop) {
      let first = true;
      for (const { data, at } of streamFrame(win, stop.offset, stop.offset + stop.length)) {
        yield* within(data, first ? stop.offset : null, at);
        first = false;
        await turn();
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
  stop: FrameInfo | FrameError | null;
  job: Promise<DecodedBatch> | null;
}

/** A batch's output; `error` names the damaged frame after the chunks before it. Never rejects. */
interface DecodedBatch {
  chunks: { chunk: Buffer; frameOffset: number }[];
  error: FrameError | null;
}

/** Decodes the complete frames in [start, end) in one native call; on failure, frame by frame to name the damaged one. */
async function decodeBatch(win: FileWindow, start: number, end: number, bound: number): Promise<DecodedBatch> {
  const range = win.range(start, end);
  try {
    // A small batch (a short chat's whole log) shares one native call with the others asked for meanwhile.
    const chunk = await (bound <= SHARED_BOUND ? decodeFrameBatched(range, bound) : decompressNative(range));
    return { chunks: [{ chunk, frameOffset: start }], error: null };
  } catch {
    // Find the damaged frame and keep everything before it.
  }
  const chunks: DecodedBatch["chunks"] = [];
  const src = {
    size: end,
    bytes: (pos: number, n: number) => range.subarray(pos - start, Math.min(pos + n, end) - start),
  };
  for (let pos = start; pos < end; ) {
    const frame = walkFrame(src, pos);
    try {
      chunks.push({
        chunk: await decompressNative(range.subarray(pos - start, pos - start + frame.length)),
        frameOffset: pos,
      });
    } catch (error) {
      const message = `the zstd frame at byte ${pos} is damaged (${(error as Error).message})`;
      return { chunks, error: new FrameError(message, pos) };
    }
    pos += frame.length;
  }
  return { chunks, error: null };
}

/** A limit met: `offset` is where reading stopped in the file, `decoded` the bytes decoded before it. */
function capError(limit: number, offset: number, decoded: number, kind: "cap" | "ratio"): FrameError {
  const what = kind === "cap" ? `more than ${limit} bytes` : `more than ${limit} times its compressed size`;
  return new FrameError(`the log decodes to ${what}`, offset, kind, decoded);
}

/** A piece of streamed output and the compressed offset read up to when it was decoded. */
interface Piece {
  data: Buffer;
  at: number;
}

/**
 * Streams one frame with fzstd, fed whole blocks in groups of about 1 MiB of
 * output bound (or compressed size), so no push can produce more than about
 * 1 MiB + one block, whatever the compression ratio.
 */
function* streamFrame(win: FileWindow, start: number, end: number, final = true): Generator<Piece> {
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
  let at = start;
  let blockAt = Math.min(firstBlockAt(win, start), end);
  while (at < end) {
    let to = blockAt;
    let bound = 0;
    while (to < end && bound < STREAM_PIECE && to - at < STREAM_PIECE) {
      const bh = win.bytes(to, 3);
      if (bh.length < 3) {
        to = end;
        break;
      }
      const header = (bh[0] as number) | ((bh[1] as number) << 8) | ((bh[2] as number) << 16);
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      bound += type === 2 ? BLOCK_MAX : size;
      to += 3 + (type === 1 ? 1 : size);
      // The last block: the checksum after it goes with it.
      if (header & 1) to = end;
    }
    to = Math.min(to, end);
    try {
      decoder.push(win.range(at, to), final && to >= end);
    } catch (error) {
      if (pendingBytes) yield { data: take(), at: to };
      throw new FrameError(`the zstd frame at byte ${start} is damaged (${(error as Error).message})`, start);
    }
    at = to;
    blockAt = to;
    if (pendingBytes) yield { data: take(), at };
  }
}

/** Decodes what can be decoded of a cut-off frame: its complete blocks, then a cut raw block's bytes. */
async function* decodeCutFrame(win: FileWindow, frame: FrameInfo): AsyncGenerator<Piece> {
  const cut = frame.cut;
  if (!cut || frame.kind !== "data" || !cut.headerComplete) return;
  if (cut.lastBlockAt >= 0) {
    if (frame.bound > BATCH_BOUND) {
      yield* streamFrame(win, frame.offset, cut.blocksEnd, false);
    } else {
      const blocks = Buffer.from(win.range(firstBlockAt(win, frame.offset), cut.blocksEnd));
      const lastAt = cut.lastBlockAt - (cut.blocksEnd - blocks.length);
      blocks[lastAt] = (blocks[lastAt] as number) | 1;
      let data: Buffer;
      try {
        data = await decompressNative(Buffer.concat([reframeHeader(frame.windowSize), blocks]));
      } catch (error) {
        // Found by fuzz-logs: a cut frame with damaged blocks made the native decoder throw past the reader.
        throw new FrameError(
          `the zstd frame at byte ${frame.offset} is damaged (${(error as Error).message})`,
          frame.offset,
        );
      }
      yield { data, at: cut.blocksEnd };
    }
  }
  if (cut.rawTail) yield { data: Buffer.from(win.range(cut.rawTail.start, cut.rawTail.end)), at: cut.rawTail.end };
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
