import { constants, DeflateRaw, deflateRawSync } from "node:zlib";

/**
 * Raw deflate of many small buffers with one zlib stream, reset between them (`text-codec.ts`'s blocks).
 * `deflateRawSync` makes a stream per call: allocating zlib's window and hash tables (about 260 KB) and, with
 * a dictionary, priming it, cost more than compressing a short chat's kilobyte of text. A reset keeps the
 * tables and sets the dictionary again, and gives the same bytes as a new stream (`block-deflate.test.ts`).
 *
 * Node's synchronous zlib API closes its stream after each call and has no reset for it, so this drives the
 * stream's native handle as that API does (`writeSync`, then the `_writeState` it fills: output and input
 * left). Where the handle is not as expected (another Node), each block falls back to `deflateRawSync`.
 */

/** The native handle's calls used here (`lib/zlib.js`'s `processChunkSync`). */
interface ZlibHandle {
  reset(): void;
  writeSync(
    flush: number,
    input: Uint8Array,
    inOffset: number,
    inLength: number,
    output: Uint8Array,
    outOffset: number,
    outLength: number,
  ): void;
}
interface StreamInternals {
  _handle?: ZlibHandle | null;
  _writeState?: Uint32Array;
}

/** Output room per native call: a block of up to `BLOCK_CHARS` characters mostly fits in one or two. */
const OUT_BYTES = 64 * 1024;

export class BlockDeflater {
  private handle: ZlibHandle | null = null;
  private state: Uint32Array | null = null;
  private stream: DeflateRaw | null = null;
  private out = Buffer.allocUnsafe(OUT_BYTES);

  constructor(
    private readonly level: number,
    private readonly dictionary: Buffer | null,
  ) {
    const stream = new DeflateRaw(dictionary ? { level, dictionary } : { level });
    const internals = stream as unknown as StreamInternals;
    const handle = internals._handle;
    if (handle && typeof handle.writeSync === "function" && typeof handle.reset === "function") {
      if (internals._writeState instanceof Uint32Array) {
        // What the synchronous API does around its calls: an error is seen on the stream, never thrown later.
        stream.on("error", () => {});
        this.stream = stream;
        this.handle = handle;
        this.state = internals._writeState;
        return;
      }
    }
    stream.close();
  }

  /** True while blocks go through the kept stream (false: each block is made by `deflateRawSync`). */
  get kept(): boolean {
    return !!this.handle && !!this.stream && !this.stream.destroyed;
  }

  /** True when this deflater primes with `dictionary` (the same bytes). */
  uses(dictionary: Buffer): boolean {
    return this.dictionary !== null && (this.dictionary === dictionary || this.dictionary.equals(dictionary));
  }

  /** `tag`, then `input` raw-deflated as `deflateRawSync` with this level and dictionary would. */
  deflate(input: Buffer, tag: number): Buffer {
    const { handle, state, stream } = this;
    if (!handle || !state || !stream || stream.destroyed) return this.fallback(input, tag);
    handle.reset();
    const parts: Buffer[] = [];
    let out = this.out;
    out[0] = tag;
    let outStart = 1;
    let inOffset = 0;
    let inLength = input.length;
    for (;;) {
      handle.writeSync(constants.Z_FINISH, input, inOffset, inLength, out, outStart, out.length - outStart);
      // An error closes the stream through its error handler: the block is made the ordinary way instead.
      if (stream.destroyed) return this.fallback(input, tag);
      const outLeft = state[0] as number;
      const inLeft = state[1] as number;
      parts.push(Buffer.from(out.subarray(0, out.length - outLeft)));
      inOffset += inLength - inLeft;
      inLength = inLeft;
      // Room left over: the stream ended (Z_FINISH gives all it has while there is room).
      if (outLeft !== 0) break;
      out = this.out;
      outStart = 0;
    }
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }

  private fallback(input: Buffer, tag: number): Buffer {
    const options = this.dictionary ? { level: this.level, dictionary: this.dictionary } : { level: this.level };
    return Buffer.concat([Buffer.of(tag), deflateRawSync(input, options)]);
  }
}
