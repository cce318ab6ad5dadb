import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-support/chats/test-helpers";
import { DEFAULT_LOG_LIMITS, type LogLimits } from "../limits";
import { type DecodeZstdOptions, decodeZstd, stats } from "./decode";
import { FrameError } from "./frames";

// decodeZstd's edges, exactly (docs/mutation.md): frames built here byte by byte (RFC 8878), so every
// frame's length, bound and content is known, and the items it yields (data with its frame offset, then
// the end) are compared whole: how frames are grouped into batches, the caps planned from content sizes,
// the already-decoded start, a damaged frame in a batch, cut frames, and the frames too large for one batch.

/** A raw block, an RLE block, a compressed block of bytes that are no block, or a compressed block holding
 * fewer than 32 literals and no sequences (RFC 8878 §3.1.1.3: a 1-byte raw-literals header, then 0). */
type Block = { raw: Buffer } | { rle: number; n: number } | { garbage: Buffer } | { literals: Buffer };
const KiB = 1024;
const MiB = 1024 * KiB;
const NO_RATIO: LogLimits = { ...DEFAULT_LOG_LIMITS, maxRatio: 1e9 };

/** A zstd frame: 128 KiB window, dictionary-id byte 0, no checksum; a 4-byte content size when given. */
function frame(blocks: Block[], contentSize?: number): Buffer {
  const fhd = (contentSize === undefined ? 0 : 2 << 6) | 1;
  const head = [0x28, 0xb5, 0x2f, 0xfd, fhd, 7 << 3, 0];
  const fcs = contentSize === undefined ? [] : [...Buffer.from(new Uint32Array([contentSize]).buffer)];
  const parts: Buffer[] = [Buffer.from([...head, ...fcs])];
  blocks.forEach((b, i) => {
    const last = i === blocks.length - 1 ? 1 : 0;
    const literals = "literals" in b ? Buffer.from([b.literals.length << 3, ...b.literals, 0]) : null;
    const [type, size, body] =
      "raw" in b
        ? [0, b.raw.length, b.raw]
        : "rle" in b
          ? [1, b.n, Buffer.from([b.rle])]
          : literals
            ? [2, literals.length, literals]
            : [2, (b as { garbage: Buffer }).garbage.length, (b as { garbage: Buffer }).garbage];
    const h = last | (type << 1) | (size << 3);
    parts.push(Buffer.from([h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff]), body);
  });
  return Buffer.concat(parts);
}
const raw = (byte: number, n: number, withSize = false) =>
  frame([{ raw: Buffer.alloc(n, byte) }], withSize ? n : undefined);
/** `blocks` RLE blocks of 128 KiB of `byte`: 128 KiB of output per 4 bytes. */
const rle = (byte: number, blocks: number) =>
  frame(Array.from({ length: blocks }, () => ({ rle: byte, n: 128 * KiB })));

interface Run {
  items: { frameOffset: number | null; length: number; first: number }[];
  data: Buffer;
  end: unknown;
  error: FrameError | null;
}

/** Decodes `bytes` from a file; the data is kept only when `keep` (big outputs are only measured). */
async function run(bytes: Buffer, options: DecodeZstdOptions = {}, keep = true): Promise<Run> {
  const path = join(tempDir(), "log.zstd");
  writeFileSync(path, bytes);
  const fd = openSync(path, "r");
  const out: Run = { items: [], data: Buffer.alloc(0), end: null, error: null };
  const kept: Buffer[] = [];
  try {
    for await (const item of decodeZstd(fd, bytes.length, options)) {
      if (item.type === "end") out.end = item;
      else {
        out.items.push({ frameOffset: item.frameOffset, length: item.data.length, first: item.data[0] ?? -1 });
        if (keep) kept.push(Buffer.from(item.data));
      }
    }
  } catch (error) {
    if (!(error instanceof FrameError)) throw error;
    out.error = error;
  } finally {
    closeSync(fd);
  }
  out.data = Buffer.concat(kept);
  return out;
}
const item = (frameOffset: number | null, length: number, first: number) => ({ frameOffset, length, first });

describe("decodeZstd's batches", () => {
  // Raw frames of 20,000 bytes (20,010 with their headers): the first batch takes up to 64 KiB of the file
  // (3 frames), and so does the second, planned while the first decodes; then each batch aims at `batchOutput`
  // decoded bytes at the ratio of the batch before the one decoding: 200,000 × 20,010 / 20,000 = 200,100
  // bytes of the file, exactly 10 frames.
  const frames = Array.from({ length: 35 }, (_, i) => raw(i, 20_000));
  const L = 20_010;

  it("groups frames by the file bytes of the first batch, then by the output aimed at", async () => {
    expect(frames[0]?.length).toBe(L);
    const { items, data, end, error } = await run(Buffer.concat(frames), { batchOutput: 200_000 });
    expect(error).toBeNull();
    expect(items).toEqual([
      item(0, 60_000, 0),
      item(3 * L, 60_000, 3),
      item(6 * L, 200_000, 6),
      item(16 * L, 200_000, 16),
      item(26 * L, 180_000, 26),
    ]);
    expect(data.equals(Buffer.concat(frames.map((_, i) => Buffer.alloc(20_000, i))))).toBe(true);
    expect(end).toEqual({ type: "end", completeEnd: 35 * L, cut: null });
  });

  it("aims at 2 MiB of output by default: the rest of a small log is one batch", async () => {
    const { items } = await run(Buffer.concat(frames));
    expect(items).toEqual([item(0, 60_000, 0), item(3 * L, 60_000, 3), item(6 * L, 580_000, 6)]);
  });

  it("joins at most 4096 frames in one batch", async () => {
    const tiny = raw(7, 2); // 12 bytes
    const { items, end } = await run(Buffer.concat(Array.from({ length: 4100 }, () => tiny)));
    expect(items).toEqual([item(0, 8192, 7), item(4096 * tiny.length, 8, 7)]);
    expect(end).toEqual({ type: "end", completeEnd: 4100 * tiny.length, cut: null });
    expect(stats.maxBatchFrames).toBe(4096);
  });

  it("joins frames up to 64 MiB of output bound, exactly", async () => {
    const f = rle(1, 64); // 8 MiB each
    const { items, error } = await run(Buffer.concat(Array.from({ length: 9 }, () => f)), { limits: NO_RATIO }, false);
    expect(error).toBeNull();
    expect(items).toEqual([item(0, 64 * MiB, 1), item(8 * f.length, 8 * MiB, 1)]);
  });

  it("decodes a frame of exactly 64 MiB natively, and streams a larger one in 1 MiB pieces, then goes on", async () => {
    const exact = rle(2, 512);
    expect((await run(exact, { limits: NO_RATIO }, false)).items).toEqual([item(0, 64 * MiB, 2)]);
    const big = rle(3, 520);
    const after = raw(4, 100);
    const { items, end, error } = await run(Buffer.concat([big, after]), { limits: NO_RATIO }, false);
    expect(error).toBeNull();
    expect(items).toEqual([
      item(0, MiB, 3),
      ...Array.from({ length: 64 }, () => item(null, MiB, 3)),
      item(big.length, 100, 4),
    ]);
    expect(end).toEqual({ type: "end", completeEnd: big.length + after.length, cut: null });
  });

  it("counts a streamed frame's blocks by their output bound: 128 KiB for a compressed one, the size of others", async () => {
    const literals = Buffer.alloc(20, 8);
    const big = frame([
      ...Array.from({ length: 520 }, () => ({ rle: 7, n: 128 * KiB })),
      ...Array.from({ length: 100 }, () => ({ literals })),
      ...Array.from({ length: 10 }, () => ({ raw: Buffer.alloc(100, 9) })),
    ]);
    const { items, error } = await run(big, { limits: NO_RATIO }, false);
    expect(error).toBeNull();
    expect(items.slice(65)).toEqual([
      ...Array.from({ length: 12 }, () => item(null, 8 * 20, 8)),
      item(null, 4 * 20 + 10 * 100, 8),
    ]);
  });

  it("passes on what it decoded before a frame the streaming decoder refuses, then says which frame", async () => {
    const bad = frame([
      ...Array.from({ length: 516 }, () => ({ rle: 5, n: 128 * KiB })),
      { garbage: Buffer.from("not a block") },
    ]);
    const good = raw(6, 10);
    const { items, error } = await run(Buffer.concat([good, bad]), { limits: NO_RATIO }, false);
    expect(items[0]).toEqual(item(0, 10, 6));
    // 64 pieces of 8 blocks, then the 4 blocks decoded in the push the damaged block stopped.
    expect(items.length).toBe(66);
    expect(items.at(-1)).toEqual(item(null, 4 * 128 * KiB, 5));
    expect(error?.kind).toBe("damaged");
    expect(error?.offset).toBe(good.length);
    expect(error?.message.startsWith(`the zstd frame at byte ${good.length} is damaged (`)).toBe(true);
  });

  it("gives the event loop turns while it streams", async () => {
    let turns = 0;
    let stop = false;
    const tick = () => {
      turns++;
      if (!stop) setImmediate(tick);
    };
    setImmediate(tick);
    const path = join(tempDir(), "log.zstd");
    const big = rle(3, 1024); // 128 MiB, streamed
    writeFileSync(path, big);
    const fd = openSync(path, "r");
    let turnsBeforeEnd = 0;
    let busy = 0;
    try {
      for await (const it of decodeZstd(fd, big.length, { limits: NO_RATIO })) {
        if (it.type === "end") turnsBeforeEnd = turns;
        // The caller's work counts in the decoder's slice: three items that each take longer than a slice
        // must each be followed by a turn, however fast this machine decodes (a quiet one streamed the
        // whole 128 MiB within two slices, and the test saw a single turn).
        if (it.type === "data" && busy++ < 3) for (const until = performance.now() + 20; performance.now() < until; );
      }
    } finally {
      stop = true;
      closeSync(fd);
    }
    expect(turnsBeforeEnd).toBeGreaterThan(3);
  });
});

describe("decodeZstd's caps", () => {
  const f = (byte: number) => raw(byte, 1000, true);
  const L = f(0).length;

  it("stops before a frame whose content size would pass the cap, naming the bytes", async () => {
    const { items, error } = await run(Buffer.concat([f(1), f(2), f(3)]), {
      limits: { ...NO_RATIO, maxDecodedBytes: 2500 },
    });
    expect(items).toEqual([item(0, 2000, 1)]);
    expect(error).toMatchObject({ kind: "cap", offset: 2 * L, decoded: 2000 });
    expect(error?.message).toBe("the log decodes to more than 2500 bytes");
  });

  it("counts what was decoded before the start against it", async () => {
    const { items, error } = await run(Buffer.concat([f(1), f(2)]), {
      limits: { ...NO_RATIO, maxDecodedBytes: 2500 },
      decodedBefore: 1000,
    });
    expect(items).toEqual([item(0, 1000, 1)]);
    expect(error).toMatchObject({ kind: "cap", offset: L, decoded: 2000 });
  });

  it("without content sizes, stops where the batch's output passes the cap", async () => {
    const g = (byte: number) => raw(byte, 1000);
    const { items, error } = await run(Buffer.concat([g(1), g(2), g(3), g(4)]), {
      limits: { ...NO_RATIO, maxDecodedBytes: 2500 },
    });
    expect(items).toEqual([item(0, 2500, 1)]);
    expect(error).toMatchObject({ kind: "cap", offset: 4 * g(1).length, decoded: 2500 });
  });

  it("takes a log of exactly the cap", async () => {
    const { items, error } = await run(Buffer.concat([f(1), f(2), f(3)]), {
      limits: { ...NO_RATIO, maxDecodedBytes: 3000 },
    });
    expect(error).toBeNull();
    expect(items).toEqual([item(0, 3000, 1)]);
  });

  it("without content sizes: the bytes up to the cap, then the stop, and no empty piece at the cap", async () => {
    const big = (byte: number) => raw(byte, 40_000); // one frame per batch at first (64 KiB)
    const bytes = Buffer.concat([big(1), big(2)]);
    const partial = await run(bytes, { limits: { ...NO_RATIO, maxDecodedBytes: 30_000 } });
    expect(partial.items).toEqual([item(0, 30_000, 1)]);
    expect(partial.error).toMatchObject({ kind: "cap", decoded: 30_000, offset: big(1).length });
    const exact = await run(bytes, { limits: { ...NO_RATIO, maxDecodedBytes: 40_000 } });
    expect(exact.items).toEqual([item(0, 40_000, 1)]);
    expect(exact.error).toMatchObject({ kind: "cap", decoded: 40_000, offset: bytes.length });
  });

  it("calls a stop where the cap and the ratio bound meet a cap", async () => {
    // No content size: the stop comes from the bytes decoded (1000, of a 1010-byte frame).
    const { error } = await run(raw(1, 1000), {
      limits: { maxDecodedBytes: 500, maxRatio: 0.1, ratioFloor: 500 } as LogLimits,
    });
    expect(error).toMatchObject({ kind: "cap", decoded: 500 });
    const ratio = await run(raw(1, 1000), {
      limits: { maxDecodedBytes: 501, maxRatio: 0.1, ratioFloor: 500 } as LogLimits,
    });
    expect(ratio.error).toMatchObject({ kind: "ratio", decoded: 500 });
    expect(ratio.error?.message).toBe("the log decodes to more than 0.1 times its compressed size");
  });
});

describe("decodeZstd's already-decoded start", () => {
  const f = [raw(1, 100), raw(2, 100), raw(3, 100)];
  const bytes = Buffer.concat(f);
  const L = f[0]?.length as number;
  // Not the frames' content: what is passed on shows whether the start was taken or decoded again.
  const head = Buffer.from("HEAD");

  it("passes the start on as given, then decodes from its end", async () => {
    const { items, data, end } = await run(bytes, { first: { end: L, data: head } });
    expect(items).toEqual([item(0, 4, 72), item(L, 200, 2)]);
    expect(data.subarray(0, 4).toString()).toBe("HEAD");
    expect(end).toEqual({ type: "end", completeEnd: 3 * L, cut: null });
  });

  it("takes a start that ends at the file's end, not one past it or not past the start", async () => {
    expect((await run(bytes, { first: { end: 3 * L, data: head } })).items).toEqual([item(0, 4, 72)]);
    expect((await run(bytes, { first: { end: 3 * L + 1, data: head } })).items).toEqual([item(0, 300, 1)]);
    expect((await run(bytes, { start: L, first: { end: L, data: head } })).items).toEqual([item(L, 200, 2)]);
  });

  it("takes a start only within the limits, counting what came before", async () => {
    const cap = (maxDecodedBytes: number) => ({ ...NO_RATIO, maxDecodedBytes });
    expect((await run(bytes, { limits: cap(4), first: { end: L, data: head } })).items).toEqual([item(0, 4, 72)]);
    const over = await run(bytes, { limits: cap(4), first: { end: L, data: Buffer.from("HEAD!") } });
    expect(over.items).toEqual([item(0, 4, 1)]);
    const before = await run(bytes, {
      limits: cap(6),
      decodedBefore: 2,
      first: { end: L, data: Buffer.from("HEAD!") },
    });
    expect(before.items).toEqual([item(0, 4, 1)]);
    // The ratio bound: maxRatio × the start's end, or the floor when larger.
    const ratio = { maxDecodedBytes: 1e9, maxRatio: 2, ratioFloor: 1 } as LogLimits;
    expect((await run(bytes, { limits: ratio, first: { end: L, data: Buffer.alloc(2 * L, 9) } })).items[0]).toEqual(
      item(0, 2 * L, 9),
    );
    const floor = { maxDecodedBytes: 1e9, maxRatio: 0.01, ratioFloor: 1000 } as LogLimits;
    expect((await run(bytes, { limits: floor, first: { end: L, data: head } })).items[0]).toEqual(item(0, 4, 72));
  });
});

describe("decodeZstd and damaged or cut frames", () => {
  it("keeps the frames of a later batch before a damaged one, each at its offset", async () => {
    const first = raw(1, 65_500); // a batch of its own: with the next frame it would pass 64 KiB
    const f = [raw(2, 100), raw(3, 100), frame([{ garbage: Buffer.from("garbage!!") }]), raw(4, 100)];
    const { items, error } = await run(Buffer.concat([first, ...f]));
    const at = first.length;
    const L = f[0]?.length as number;
    expect(items).toEqual([item(0, 65_500, 1), item(at, 100, 2), item(at + L, 100, 3)]);
    expect(error).toMatchObject({ kind: "damaged", offset: at + 2 * L });
  });

  it("keeps the frames of a batch before a damaged one, each at its offset, then names it", async () => {
    const f = [raw(1, 100), raw(2, 100), frame([{ garbage: Buffer.from("garbage!!") }]), raw(4, 100)];
    const { items, error } = await run(Buffer.concat(f));
    const L = f[0]?.length as number;
    expect(items).toEqual([item(0, 100, 1), item(L, 100, 2)]);
    expect(error?.kind).toBe("damaged");
    expect(error?.offset).toBe(2 * L);
    expect(error?.message.startsWith(`the zstd frame at byte ${2 * L} is damaged (`)).toBe(true);
  });

  it("decodes a cut frame's complete blocks, then the bytes present of its cut raw block", async () => {
    const whole = raw(1, 50);
    const cut = frame([{ raw: Buffer.alloc(30, 2) }, { rle: 3, n: 20 }, { raw: Buffer.alloc(40, 4) }], 90);
    const bytes = Buffer.concat([whole, cut.subarray(0, cut.length - 15)]); // 25 of the last block's 40 bytes
    const { items, data, end } = await run(bytes);
    expect(items).toEqual([item(0, 50, 1), item(whole.length, 50, 2), item(null, 25, 4)]);
    expect(
      data.equals(Buffer.concat([Buffer.alloc(50, 1), Buffer.alloc(30, 2), Buffer.alloc(20, 3), Buffer.alloc(25, 4)])),
    ).toBe(true);
    expect(end).toEqual({ type: "end", completeEnd: whole.length, cut: { offset: whole.length, decoded: 75 } });
  });

  it("names a cut frame whose complete blocks are damaged", async () => {
    const cut = frame([{ garbage: Buffer.from("garbage!!") }, { raw: Buffer.alloc(40, 4) }]);
    const { items, error } = await run(cut.subarray(0, cut.length - 10));
    expect(items).toEqual([]);
    expect(error?.kind).toBe("damaged");
    expect(error?.offset).toBe(0);
    expect(error?.message.startsWith("the zstd frame at byte 0 is damaged (")).toBe(true);
  });

  it("decodes a cut frame of up to 64 MiB natively, in one piece", async () => {
    const small = rle(6, 20);
    expect((await run(small.subarray(0, small.length - 2), { limits: NO_RATIO }, false)).items).toEqual([
      item(0, 19 * 128 * KiB, 6),
    ]);
    const exact = rle(6, 513); // the cut frame's complete blocks: exactly 64 MiB
    expect((await run(exact.subarray(0, exact.length - 2), { limits: NO_RATIO }, false)).items).toEqual([
      item(0, 64 * MiB, 6),
    ]);
  });

  it("streams a cut frame over 64 MiB in 1 MiB pieces", async () => {
    const big = rle(5, 600);
    const { items, end, error } = await run(big.subarray(0, big.length - 2), { limits: NO_RATIO }, false);
    expect(error).toBeNull();
    expect(items.length).toBe(75);
    expect(items[0]).toEqual(item(0, MiB, 5));
    expect(items.slice(1, -1).every((i) => i.frameOffset === null && i.length === MiB)).toBe(true);
    expect(items.at(-1)).toEqual(item(null, MiB - 128 * KiB, 5));
    expect(end).toEqual({ type: "end", completeEnd: 0, cut: { offset: 0, decoded: 599 * 128 * KiB } });
  });
});
