import { execFileSync } from "node:child_process";
import { closeSync, openSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-support/chats/test-helpers";
import { DEFAULT_LOG_LIMITS, type LogLimits } from "../limits";
import { decodeZstd } from "./decode";
import { FrameError } from "./frames";

/**
 * The zstd ratio guard with fixed inputs (the fuzz test finds it only for some
 * seeds): decoded output may pass `maxRatio` × the compressed bytes read only
 * below `ratioFloor`. Files are made by the real `zstd` CLI.
 */

function zstdOf(name: string, generator: string): string {
  const path = join(tempDir(), name);
  execFileSync("sh", ["-c", `${generator} | zstd -q -3 -c > '${path}'`]);
  return path;
}

async function decodeAll(path: string, limits: LogLimits): Promise<{ out: Buffer; stop: FrameError | null }> {
  const fd = openSync(path, "r");
  const parts: Buffer[] = [];
  let stop: FrameError | null = null;
  try {
    for await (const item of decodeZstd(fd, statSync(path).size, { limits }))
      if (item.type === "data") parts.push(item.data);
  } catch (error) {
    if (!(error instanceof FrameError)) throw error;
    stop = error;
  } finally {
    closeSync(fd);
  }
  return { out: Buffer.concat(parts), stop };
}

describe("the zstd ratio guard", () => {
  it("stops 8 MiB of zeros at exactly maxRatio × the compressed bytes read, every byte before it yielded", async () => {
    const path = zstdOf("zeros.zstd", "head -c 8M /dev/zero");
    const size = statSync(path).size;
    expect(8 * 1024 * 1024).toBeGreaterThan(1000 * size); // the file is a bomb at ratio 1000
    const limits = { ...DEFAULT_LOG_LIMITS, maxRatio: 1000, ratioFloor: 1024 };
    const { out, stop } = await decodeAll(path, limits);
    expect(stop?.kind).toBe("ratio");
    expect(stop?.message).toBe("the log decodes to more than 1000 times its compressed size");
    expect(stop?.offset).toBeGreaterThan(0);
    expect(stop?.offset).toBeLessThanOrEqual(size);
    expect(stop?.decoded).toBe(1000 * (stop?.offset as number));
    expect(out.length).toBe(stop?.decoded);
    expect(out.equals(Buffer.alloc(out.length))).toBe(true);
  });

  it("lets the same file through below the floor, and at a ratio limit it stays under", async () => {
    const path = zstdOf("zeros.zstd", "head -c 8M /dev/zero");
    const size = statSync(path).size;
    const underFloor = await decodeAll(path, { ...DEFAULT_LOG_LIMITS, maxRatio: 1000, ratioFloor: 8 * 1024 * 1024 });
    expect(underFloor.stop).toBeNull();
    expect(underFloor.out.length).toBe(8 * 1024 * 1024);
    const ratio = Math.ceil((8 * 1024 * 1024) / size);
    const atRatio = await decodeAll(path, { ...DEFAULT_LOG_LIMITS, maxRatio: ratio, ratioFloor: 1024 });
    expect(atRatio.stop).toBeNull();
    expect(atRatio.out.length).toBe(8 * 1024 * 1024);
  });

  it("the floor decides while maxRatio × bytes read is below it: exactly ratioFloor bytes come out", async () => {
    const path = zstdOf("zeros.zstd", "head -c 8M /dev/zero");
    const { out, stop } = await decodeAll(path, { ...DEFAULT_LOG_LIMITS, maxRatio: 10, ratioFloor: 3 * 1024 * 1024 });
    expect(stop?.kind).toBe("ratio");
    expect(stop?.message).toBe("the log decodes to more than 10 times its compressed size");
    expect(out.length).toBe(3 * 1024 * 1024);
    expect(stop?.decoded).toBe(3 * 1024 * 1024);
  });

  it("an ordinary log at its default limits decodes whole, as zstd -dc does", async () => {
    const path = zstdOf("seq.zstd", `seq 1 20000 | sed 's/.*/{"n":&}/'`);
    const { out, stop } = await decodeAll(path, DEFAULT_LOG_LIMITS);
    expect(stop).toBeNull();
    expect(out.equals(execFileSync("zstd", ["-dc", path]))).toBe(true);
  });
});
