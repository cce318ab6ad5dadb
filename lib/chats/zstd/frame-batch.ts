import { randomBytes } from "node:crypto";
import { decompress as decompressNative } from "@mongodb-js/zstd";

/**
 * Decodes many small zstd frames with one native call. The chat list decodes
 * every log's first frame to read its header; one `decompress` per frame costs
 * about 100 µs of call overhead (a decoder context and a thread-pool round trip)
 * for a few microseconds of decoding, the largest share of a 10,000-chat listing
 * (`node --cpu-prof`). Frames asked for in the same turn of the event loop are
 * joined, each followed by a tiny raw frame holding a marker, and decoded
 * together: zstd decodes concatenated frames to the concatenation of their
 * contents, and the markers cut it back into one output per frame. If the
 * joined call fails (one frame is corrupt), every frame of the batch is decoded
 * alone, so each gets its own result or error, as with a call of its own.
 */

/** A marker no log holds by chance: random bytes drawn once per process. */
const MARKER = Buffer.concat([Buffer.from("\0oda-frame-end:"), randomBytes(16), Buffer.from("\0")]);

/** A raw zstd frame whose content is the marker: single segment, one-byte content size, one raw last block. */
const MARKER_FRAME = (() => {
  const n = MARKER.length;
  const blockHeader = 1 | (n << 3); // last block, type raw, size n
  return Buffer.concat([
    Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, n]),
    Buffer.from([blockHeader & 0xff, (blockHeader >> 8) & 0xff, (blockHeader >> 16) & 0xff]),
    MARKER,
  ]);
})();

/** Upper bound of the decoded bytes of one joined call, so a batch stays small in memory. */
const BATCH_BOUND = 16 * 1024 * 1024;

interface Pending {
  frame: Buffer;
  resolve: (out: Buffer) => void;
  reject: (error: unknown) => void;
}

/** The decoder's output as a Buffer, without copying it. */
function asBuffer(out: Uint8Array): Buffer {
  return Buffer.isBuffer(out) ? out : Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

let queue: Pending[] = [];
let queuedBound = 0;
let scheduled = false;

/** Decodes one batch with one call, or frame by frame when the joined call fails. */
async function decodeBatch(batch: Pending[]): Promise<void> {
  if (batch.length === 1) {
    const only = batch[0] as Pending;
    await decompressNative(only.frame).then((out) => only.resolve(asBuffer(out)), only.reject);
    return;
  }
  let joined: Buffer | null = null;
  try {
    joined = asBuffer(await decompressNative(Buffer.concat(batch.flatMap((p) => [p.frame, MARKER_FRAME]))));
  } catch {
    joined = null;
  }
  const parts: Buffer[] = [];
  for (let from = 0; joined && parts.length < batch.length; ) {
    const end = joined.indexOf(MARKER, from);
    if (end < 0) break;
    parts.push(joined.subarray(from, end));
    from = end + MARKER.length;
  }
  if (joined && parts.length === batch.length) {
    for (const [i, p] of batch.entries()) p.resolve(parts[i] as Buffer);
    return;
  }
  await Promise.all(batch.map((p) => decompressNative(p.frame).then((out) => p.resolve(asBuffer(out)), p.reject)));
}

function flush(): void {
  scheduled = false;
  const batch = queue;
  queue = [];
  queuedBound = 0;
  if (batch.length) void decodeBatch(batch);
}

/**
 * Decodes one complete zstd frame (`bound`: the walker's upper bound of its
 * decoded size), batched with the other frames asked for in this turn of the
 * event loop. Rejects with the native decoder's error for a frame it refuses.
 */
export function decodeFrameBatched(frame: Buffer, bound: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (queuedBound + bound > BATCH_BOUND && queue.length) flush();
    queue.push({ frame, resolve, reject });
    queuedBound += bound;
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
}
