import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import { beforeAll, describe, expect, it } from "vitest";
import { filler, MAIL, message, run, temp } from "../../test-support/bundle/redact-log-testing";
import { REDACT_KINDS, type RedactKind } from "./detectors";
import { Redactor } from "./redactor";

// redact-log.ts's lazy start once the 32 MiB it holds are spent (docs/mutation.md): past them no frame is left
// to start from, so a cut tail, a damaged rest or a change after a boundary inside a line answers `again`,
// writing nothing; exactly 32 MiB held is still within the limit. The big part is 1 MiB of lines repeated (zstd
// shrinks the repeats to almost nothing), made once for the file.

const MiB = 1024 * 1024;
const lineOf = (seed: number) => `${message(filler(seed, 65_536 - 1 - message("").length))}\n`; // 64 KiB with its end
const LINE = lineOf(31);
// 1 MiB of distinct lines, repeated: its frame compresses to more than 64 KiB, so the decoder reads it in a
// batch of its own and the frame after it starts a batch (its boundary is seen).
const MIB_OF_LINES = Array.from({ length: 16 }, (_, i) => lineOf(100 + i)).join("");
const OPEN = `{"type":"message","role":"user","text":"a line the frame ends inside, `; // no line end
const cutOf = (frame: Buffer) => frame.subarray(0, Math.max(6, frame.length - 4));

let big: Buffer; // one frame: 33 MiB of lines and the start of a line it ends inside
beforeAll(async () => {
  expect(MIB_OF_LINES.length).toBe(MiB);
  big = await compress(Buffer.from(MIB_OF_LINES.repeat(33) + OPEN), 3);
  expect(big.length).toBeGreaterThan(64 * 1024);
});

const logOf = (...parts: Buffer[]) => {
  const file = join(temp(), "log.jsonl.zst");
  writeFileSync(file, Buffer.concat(parts));
  return file;
};

describe("redactLog, lazy, past 32 MiB held", () => {
  it("answers again at a damaged rest, writing nothing and changing nothing it did not see", async () => {
    const file = logOf(big, Buffer.alloc(4));
    const { res, writes } = await run(file, { compressed: true, lazy: true });
    expect(res).toMatchObject({ again: true, changed: false, rebuilt: null });
    expect(res.unreadable).not.toBeNull();
    expect(writes).toEqual([]);
  });

  it("answers again at a cut frame, writing nothing", async () => {
    const file = logOf(big, cutOf(await compress(Buffer.from(`${"x".repeat(5000)}"}\n`), 3)));
    const { res, writes } = await run(file, { compressed: true, lazy: true });
    expect(res).toMatchObject({ again: true, rebuilt: null });
    expect(writes).toEqual([]);
  });

  it("answers again at a line over the line limit (written from its first piece), even one that changes nothing", async () => {
    const file = logOf(big, await compress(Buffer.from(`${"x".repeat(17 * MiB)}"}\n${message("b")}\n`), 3));
    const { res, writes } = await run(file, { compressed: true, lazy: true });
    expect(res).toMatchObject({ again: true, rebuilt: null });
    expect(writes).toEqual([]);
  });

  it("answers again at a change after a frame boundary inside a line (no frame is left to start from)", async () => {
    const file = logOf(big, await compress(Buffer.from(`end"}\n${message(MAIL)}\n`), 3));
    const { res, writes } = await run(file, { compressed: true, lazy: true });
    expect(res).toMatchObject({ again: true, changed: true, rebuilt: null });
    expect(writes).toEqual([]);
  });
});

describe("redactLog, lazy, exactly 32 MiB held", () => {
  it("still starts from the frame's start at a change in the last line", async () => {
    // Its own keyword, so that the other tests' redactor finds nothing in these lines.
    const all = new Set<RedactKind>([...REDACT_KINDS, "keyword"]);
    const redactor = new Redactor({ homes: [], hosts: [], keywords: ["quokkaz"] }, all);
    const last = `${message(`quokkaz ${filler(32, 65_536 - 1 - message("quokkaz ").length)}`)}\n`;
    expect(last.length).toBe(65_536);
    const text = LINE.repeat(32 * 16 - 1) + last; // 32 MiB exactly
    const file = logOf(await compress(Buffer.from(text), 3));
    const { res, written } = await run(file, { compressed: true, lazy: true, redactor });
    expect(res).toMatchObject({ again: false, changed: true, lines: 32 * 16 });
    expect(written.length).toBeGreaterThan(0);
    expect(Buffer.from(text).length).toBe(32 * MiB);
  });
});
