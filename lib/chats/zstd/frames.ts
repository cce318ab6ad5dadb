/**
 * A zstd frame walker that reads only headers (RFC 8878 §3.1): frame header,
 * then 3-byte block headers, then the optional checksum. It finds exact frame
 * boundaries without decompressing, passes skippable frames, bounds each
 * frame's output before it is decoded, refuses windows over 2^27, and tells a
 * cut-off last frame from a complete one.
 */

/** zstd's default decoder limit (`--long` aside): `zstd -dc` refuses larger windows too. */
export const MAX_WINDOW = 2 ** 27;
const MAGIC = 0xfd2fb528;
const BLOCK_MAX = 128 * 1024;

/** One frame found by `walkFrame`. */
export interface FrameInfo {
  kind: "data" | "skippable";
  /** Byte offset of the frame in the file. */
  offset: number;
  /** Compressed length of the whole frame (for a cut frame: the bytes present). */
  length: number;
  /** Frame_Content_Size when the header carries it. */
  contentSize: number | null;
  windowSize: number;
  /** Upper bound of the decompressed size (content size, else block by block). */
  bound: number;
  hasChecksum: boolean;
  /** Set on a cut-off frame: the file ends inside it. */
  cut?: FrameCut;
}

/** Where a cut frame's complete blocks end, and the bytes present of a partial raw block. */
export interface FrameCut {
  blocksEnd: number;
  /** Offset of the last complete block's header, or -1 when no block is complete. */
  lastBlockAt: number;
  rawTail: { start: number; end: number } | null;
  headerComplete: boolean;
}

/** Random access to the file's bytes for the walker (`FileWindow`). */
export interface ByteSource {
  /** Up to `n` bytes at `pos` (fewer only at the end of the file). */
  bytes(pos: number, n: number): Buffer;
  readonly size: number;
}

/** A frame the walker cannot pass: the whole log from here on cannot be decoded. */
export class FrameError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly kind: "damaged" | "window" | "cap" | "ratio" = "damaged",
    /** For "cap" and "ratio": the decoded bytes before the stop. */
    readonly decoded = 0,
  ) {
    super(message);
  }
}

/**
 * Reads the frame at `pos`. Returns a complete frame, a cut frame (`cut` set:
 * the file ends inside it), or throws `FrameError` for bytes that are not a
 * zstd frame or a window over `MAX_WINDOW`.
 */
export function walkFrame(src: ByteSource, pos: number): FrameInfo {
  const size = src.size;
  let lastBlockAt = -1;
  const cutAt = (
    headerComplete: boolean,
    blocksEnd: number,
    rawTail: FrameCut["rawTail"],
    partial: Omit<FrameInfo, "cut" | "length">,
  ): FrameInfo => ({
    ...partial,
    length: size - pos,
    cut: { blocksEnd, lastBlockAt, rawTail, headerComplete },
  });
  const empty = { kind: "data" as const, offset: pos, contentSize: null, windowSize: 0, bound: 0, hasChecksum: false };
  const head = src.bytes(pos, 18);
  if (head.length < 4) return cutAt(false, pos, null, empty);
  const magic = head.readUInt32LE(0);
  if (magic >>> 4 === 0x184d2a5) {
    if (head.length < 8) return cutAt(false, pos, null, { ...empty, kind: "skippable" });
    const length = 8 + head.readUInt32LE(4);
    if (pos + length > size) return cutAt(false, pos, null, { ...empty, kind: "skippable" });
    return { ...empty, kind: "skippable", length };
  }
  if (magic !== MAGIC) throw new FrameError(`no zstd frame starts at byte ${pos}`, pos);
  if (head.length < 5) return cutAt(false, pos, null, empty);
  const fhd = head[4] as number;
  const fcsFlag = fhd >> 6;
  const single = (fhd >> 5) & 1;
  const hasChecksum = ((fhd >> 2) & 1) === 1;
  const didFlag = fhd & 3;
  if (fhd & 8) throw new FrameError(`the zstd frame at byte ${pos} sets a reserved bit`, pos);
  const didBytes = [0, 1, 2, 4][didFlag] as number;
  const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag;
  const headerLength = 5 + (single ? 0 : 1) + didBytes + fcsBytes;
  if (head.length < headerLength) return cutAt(false, pos, null, { ...empty, hasChecksum });
  let p = 5;
  let windowSize = 0;
  if (!single) {
    const wd = head[p++] as number;
    const base = 2 ** (10 + (wd >> 3));
    windowSize = base + (base / 8) * (wd & 7);
  }
  const dictId = didBytes ? head.readUIntLE(p, didBytes) : 0;
  p += didBytes;
  let contentSize: number | null = null;
  if (fcsBytes === 1) contentSize = head[p] as number;
  else if (fcsBytes === 2) contentSize = head.readUInt16LE(p) + 256;
  else if (fcsBytes === 4) contentSize = head.readUInt32LE(p);
  else if (fcsBytes === 8) contentSize = Number(head.readBigUInt64LE(p));
  if (single) windowSize = contentSize ?? 0;
  if (windowSize > MAX_WINDOW) {
    throw new FrameError(
      `the zstd frame at byte ${pos} needs a ${windowSize}-byte window, over the limit of ${MAX_WINDOW}`,
      pos,
      "window",
    );
  }
  if (dictId !== 0) throw new FrameError(`the zstd frame at byte ${pos} needs dictionary ${dictId}`, pos);
  const blockMax = Math.min(BLOCK_MAX, Math.max(windowSize, 1));
  const info = { kind: "data" as const, offset: pos, contentSize, windowSize, bound: 0, hasChecksum };
  let at = pos + headerLength;
  let bound = 0;
  for (;;) {
    const bh = src.bytes(at, 3);
    if (bh.length < 3) return cutAt(true, at, null, { ...info, bound });
    const header = (bh[0] as number) | ((bh[1] as number) << 8) | ((bh[2] as number) << 16);
    const last = header & 1;
    const type = (header >> 1) & 3;
    const blockSize = header >>> 3;
    if (type === 3) throw new FrameError(`the zstd frame at byte ${pos} has a reserved block type at byte ${at}`, pos);
    if (type === 2 && blockSize > blockMax) {
      throw new FrameError(`the zstd frame at byte ${pos} has an oversized block at byte ${at}`, pos);
    }
    const stored = type === 1 ? 1 : blockSize;
    if (at + 3 + stored > size) {
      const rawTail = type === 0 && at + 3 < size ? { start: at + 3, end: size } : null;
      return cutAt(true, at, rawTail, { ...info, bound });
    }
    bound += type === 2 ? blockMax : blockSize;
    lastBlockAt = at;
    at += 3 + stored;
    if (last) break;
  }
  if (contentSize !== null) bound = Math.min(bound, contentSize);
  const end = at + (hasChecksum ? 4 : 0);
  if (end > size) return cutAt(true, at, null, { ...info, bound });
  return { ...info, bound, length: end - pos };
}
