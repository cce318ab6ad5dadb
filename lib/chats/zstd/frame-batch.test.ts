import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { decodeFrameBatched } from "./frame-batch";

/** One zstd frame of `text`, made by the real zstd CLI. */
function frameOf(text: string): Buffer {
  return execFileSync("zstd", ["-q", "-c", "--no-check"], { input: Buffer.from(text) });
}

describe("decodeFrameBatched", () => {
  it("gives each frame asked for in one turn its own content, markers and empty frames included", async () => {
    const texts = [
      ...Array.from({ length: 40 }, (_, i) => `{"type":"session","id":"c-${i}"}\n${"x".repeat(i * 37)}\n`),
      "",
      "no newline at all",
      "\0oda-frame-end:looks like a marker\0\n",
    ];
    const outs = await Promise.all(texts.map((t) => decodeFrameBatched(frameOf(t), 1 << 17)));
    expect(outs.map((o) => o.toString("utf8"))).toEqual(texts);
  });

  it("rejects a corrupt frame alone; the others of its batch still decode", async () => {
    const good = ["first\n", "second\n", "third\n"].map(frameOf);
    const bad = Buffer.from(frameOf("this frame is damaged in the middle\n".repeat(20)));
    bad[bad.length - 3] = (bad[bad.length - 3] as number) ^ 0xff;
    bad[12] = (bad[12] as number) ^ 0xff;
    const results = await Promise.allSettled([
      decodeFrameBatched(good[0] as Buffer, 1 << 17),
      decodeFrameBatched(bad, 1 << 17),
      decodeFrameBatched(good[1] as Buffer, 1 << 17),
      decodeFrameBatched(good[2] as Buffer, 1 << 17),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(results.flatMap((r) => (r.status === "fulfilled" ? [r.value.toString()] : []))).toEqual([
      "first\n",
      "second\n",
      "third\n",
    ]);
  });
});
