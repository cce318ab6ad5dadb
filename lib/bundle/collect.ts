import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * A full garbage collection now and then while a bundle reads through many
 * files or a huge log. Decoded zstd batches and per-file buffers outlive a
 * young-generation sweep often enough to be promoted, and V8 lets that
 * garbage (and the native memory behind it) pile up by 60 MiB and more before
 * a full collection: a bundle of 10,000 chats plus a 1 GB log peaked at
 * 304 MiB with a live heap under 70 MiB. A full collection of such a heap
 * takes a few milliseconds; one per `EVERY_BYTES` read costs about one in a
 * hundred of the time.
 */

/** Bytes read (decoded) between two collections. */
const EVERY_BYTES = 48 * 1024 * 1024;

let gc: (() => void) | null | undefined;
let since = 0;

function collector(): (() => void) | null {
  if (gc !== undefined) return gc;
  try {
    // `gc` is only given to code compiled after the flag is set: a fresh context gets it.
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  } catch {
    gc = null;
  }
  return gc;
}

/** Counts `bytes` read; collects once `EVERY_BYTES` have been read since the last collection. */
export function readBytes(bytes: number): void {
  since += bytes;
  if (since < EVERY_BYTES) return;
  since = 0;
  collector()?.();
}
