import { execFileSync } from "node:child_process";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FIXTURES, tempDir } from "../../../test-support/chats/test-helpers";
import { fuzzSeeds } from "../../../test-support/test-fuzz";
import { DEFAULT_LOG_LIMITS } from "../limits";
import { readLogLines } from "../line-index";
import { decodeZstd, type ZstdItem } from "./decode";
import { FrameError, walkFrame } from "./frames";

const CLI = join(FIXTURES, "zstd-cli");

async function decodeFile(
  path: string,
  maxOutput?: number,
): Promise<{ out: Buffer; end: ZstdItem | null; error: FrameError | null }> {
  const bytes = readFileSync(path);
  const fd = openSync(path, "r");
  const parts: Buffer[] = [];
  let end: ZstdItem | null = null;
  let error: FrameError | null = null;
  try {
    const limits = maxOutput ? { ...DEFAULT_LOG_LIMITS, maxDecodedBytes: maxOutput } : undefined;
    for await (const item of decodeZstd(fd, bytes.length, { limits })) {
      if (item.type === "data") parts.push(item.data);
      else end = item;
    }
  } catch (e) {
    if (!(e instanceof FrameError)) throw e;
    error = e;
  } finally {
    closeSync(fd);
  }
  return { out: Buffer.concat(parts), end, error };
}

describe("golden logs made with the zstd command line tool", () => {
  it("decodes several frames without content size, with checksums, exactly as zstd -dc", async () => {
    const { out, end, error } = await decodeFile(join(CLI, "multi-frame.jsonl.zstd"));
    expect(error).toBeNull();
    expect(out.equals(readFileSync(join(CLI, "multi-frame.jsonl.zstd.expected.jsonl")))).toBe(true);
    expect(end).toMatchObject({ type: "end", cut: null });
    expect(out.toString().split("\n").length - 1).toBe(40);
  });

  it("passes over skippable frames, with and without content size and checksum", async () => {
    const { out, error } = await decodeFile(join(CLI, "skippable.jsonl.zstd"));
    expect(error).toBeNull();
    expect(out.equals(readFileSync(join(CLI, "skippable.jsonl.zstd.expected.jsonl")))).toBe(true);
    expect(out.toString()).not.toContain("skip!");
  });

  it("decodes a cut-off last frame as far as zstd -dc does and reports its byte offset", async () => {
    const path = join(CLI, "cut-frame.jsonl.zstd");
    const { out, end, error } = await decodeFile(path);
    expect(error).toBeNull();
    const expected = readFileSync(join(CLI, "cut-frame.jsonl.zstd.expected.jsonl"));
    expect(out.equals(expected)).toBe(true);
    // The file is one complete frame (lines 1-5), then half of a frame of 16 KiB blocks.
    let fiveLines = 0;
    for (let i = 0; i < 5; i++) fiveLines = expected.indexOf(10, fiveLines) + 1;
    const firstFrameLength = walkFrame(
      { size: readFileSync(path).length, bytes: (p, n) => readFileSync(path).subarray(p, p + n) },
      0,
    ).length;
    expect(end).toEqual({
      type: "end",
      completeEnd: firstFrameLength,
      cut: { offset: firstFrameLength, decoded: expected.length - fiveLines },
    });
    expect(expected.length - fiveLines).toBeGreaterThan(16384);
  });

  it("refuses a window over 2^27, like zstd -dc", async () => {
    const { out, error } = await decodeFile(join(CLI, "big-window.jsonl.zstd"));
    expect(out.length).toBe(0);
    expect(error?.kind).toBe("window");
    expect(error?.message).toBe("the zstd frame at byte 0 needs a 268435456-byte window, over the limit of 134217728");
  });
});

/** A log of `saves` saves, each one or two frames of JSON lines. */
async function makeLog(saves: string[][]): Promise<{ bytes: Buffer; text: string }> {
  const frames: Buffer[] = [];
  for (const save of saves) frames.push(await compress(Buffer.from(save.map((l) => `${l}\n`).join("")), 3));
  return {
    bytes: Buffer.concat(frames),
    text: saves
      .flat()
      .map((l) => `${l}\n`)
      .join(""),
  };
}

const arbSaves = fc.array(
  fc.array(
    fc
      .record({
        type: fc.constantFrom("message", "title", "turn_end"),
        n: fc.nat(),
        text: fc.string({ maxLength: 300 }),
      })
      .map((o) => JSON.stringify(o)),
    { minLength: 1, maxLength: 6 },
  ),
  { minLength: 1, maxLength: 5 },
);

describe.each(fuzzSeeds(4096))("truncation at any byte ($label seed $seed)", ({ label, seed }) => {
  it("never throws and never loses a complete line before the cut (zstd)", async () => {
    const dir = tempDir();
    await fc.assert(
      fc.asyncProperty(arbSaves, fc.double({ min: 0, max: 1, noNaN: true }), async (saves, where) => {
        const { bytes, text } = await makeLog(saves);
        const cut = Math.floor(where * bytes.length);
        const path = join(dir, "session.v4.jsonl.zstd");
        writeFileSync(path, bytes.subarray(0, cut));
        const { out, error } = await decodeFile(path);
        expect(error).toBeNull();
        // What was decoded is a prefix of the whole log and matches what zstd -dc prints.
        expect(text.startsWith(out.toString())).toBe(true);
        const zstdOut = execFileSync("sh", ["-c", `zstd -dc < '${path}' 2>/dev/null || true`]);
        expect(out.equals(zstdOut)).toBe(true);
        // Every line of every complete frame before the cut is there.
        let complete = 0;
        let frames = 0;
        const boundaries = [0];
        for (const save of saves) {
          const frameBytes = (await compress(Buffer.from(save.map((l) => `${l}\n`).join("")), 3)).length;
          if (frames + frameBytes > cut) break;
          frames += frameBytes;
          boundaries.push(frames);
          complete += save.length;
        }
        const read = await readLogLines(path, true, 1, 1000);
        expect(read.error).toBeNull();
        expect(read.lines.length).toBeGreaterThanOrEqual(complete);
        expect(read.lines.map((l) => l.raw)).toEqual(text.split("\n").slice(0, read.lines.length));
        expect(read.tail?.state).toBe(boundaries.includes(cut) ? "complete" : "cut-frame");
        if (read.tail?.state === "cut-frame") expect(read.tail.frameOffset).toBe(frames);
      }),
      { numRuns: label === "fixed" ? 40 : 20, seed },
    );
  });

  it("never throws and never loses a complete line before the cut (plain)", async () => {
    const dir = tempDir();
    await fc.assert(
      fc.asyncProperty(arbSaves, fc.double({ min: 0, max: 1, noNaN: true }), async (saves, where) => {
        const text = saves
          .flat()
          .map((l) => `${l}\n`)
          .join("");
        const bytes = Buffer.from(text);
        const cut = Math.floor(where * bytes.length);
        const path = join(dir, "session.v4.jsonl");
        writeFileSync(path, bytes.subarray(0, cut));
        const read = await readLogLines(path, false, 1, 1000);
        const kept = bytes.subarray(0, cut).toString().split("\n");
        const completeLines = kept.length - 1;
        expect(read.lines.length).toBe(completeLines);
        expect(read.lines.map((l) => l.raw)).toEqual(kept.slice(0, completeLines));
        const unfinished = cut > 0 && bytes[cut - 1] !== 10;
        expect(read.tail?.state).toBe(unfinished ? "unfinished-line" : "complete");
        if (unfinished) expect(read.tail?.offset).toBe(bytes.subarray(0, cut).lastIndexOf(10) + 1);
      }),
      { numRuns: label === "fixed" ? 70 : 30, seed },
    );
  });
});

describe("bounds", () => {
  it("refuses output beyond the cap instead of running out of memory", async () => {
    const dir = tempDir();
    const path = join(dir, "big.zstd");
    writeFileSync(path, await compress(Buffer.alloc(4 * 1024 * 1024, "{}\n"), 3));
    const { error } = await decodeFile(path, 1024 * 1024);
    expect(error?.kind).toBe("cap");
  });

  it("refuses bytes that are not a zstd frame, keeping what came before", async () => {
    const dir = tempDir();
    const path = join(dir, "bad.zstd");
    const good = await compress(Buffer.from('{"a":1}\n'), 3);
    writeFileSync(path, Buffer.concat([good, Buffer.from("garbage that is not zstd")]));
    const { out, error } = await decodeFile(path);
    expect(out.toString()).toBe('{"a":1}\n');
    expect(error?.message).toBe(`no zstd frame starts at byte ${good.length}`);
  });
});
