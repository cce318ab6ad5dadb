import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeHostileLogs } from "@/e2e/hostile-logs";
import { pullInWorker } from "./log-worker";

let logs: string;
beforeEach(async () => {
  logs = mkdtempSync(join(tmpdir(), "oda-log-worker-"));
  await makeHostileLogs(logs, { zeros: "64M", newlines: "8M", longLine: "6M" });
});
afterEach(() => {
  rmSync(logs, { recursive: true, force: true });
});

const logOf = (id: string) => join(logs, "_no-cwd", id, "session.jsonl.zstd");

/** Pulls every piece, checking each came as a buffer of its own (moved from the worker, not a view into a bigger one). */
async function pullAll(
  pull: ReturnType<typeof pullInWorker>,
): Promise<{ head: unknown; bytes: Buffer; pieces: number }> {
  const parts: Uint8Array[] = [];
  let head: unknown = null;
  for (let r = await pull.next(); !r.done; r = await pull.next()) {
    if (!(r.value instanceof Uint8Array)) {
      head = r.value;
      continue;
    }
    expect(r.value.byteLength).toBeLessThanOrEqual(1024 * 1024);
    expect(r.value.byteLength).toBe(r.value.buffer.byteLength);
    parts.push(r.value);
  }
  return { head, bytes: Buffer.concat(parts), pieces: parts.length };
}

describe("downloads decoded on the decode worker", () => {
  it("a decompressed log comes piece by piece, byte for byte what zstd -dc gives", async () => {
    const { head, bytes, pieces } = await pullAll(pullInWorker("downloadLog", logs, "c-newlines", { compress: true }));
    expect(head).toEqual({ generation: "session.jsonl.zstd", compressed: true });
    expect(pieces).toBeGreaterThan(1);
    expect(bytes.equals(execFileSync("zstd", ["-dc", logOf("c-newlines")], { maxBuffer: 64 * 1024 ** 2 }))).toBe(true);
  }, 120_000);

  it("one long line comes alone, from the seek point given", async () => {
    const { bytes } = await pullAll(
      pullInWorker("downloadLine", logOf("c-long-line"), true, { line: 0, dec: 0, comp: 0 }, 2),
    );
    const whole = execFileSync("zstd", ["-dc", logOf("c-long-line")], { maxBuffer: 64 * 1024 ** 2 });
    expect(bytes.equals(whole.subarray(whole.indexOf(10) + 1, whole.indexOf(10, whole.indexOf(10) + 1)))).toBe(true);
  }, 120_000);

  it("a bomb's download fails with its sentence after the bytes up to the limit; a cancelled one ends", async () => {
    const pull = pullInWorker("downloadLog", logs, "c-zeros", { compress: true });
    await expect(pullAll(pull)).rejects.toThrow(/decodes to more than 1000 times its compressed size/);
    const cancelled = pullInWorker("downloadLog", logs, "c-zeros", { compress: true });
    await cancelled.next();
    await cancelled.next();
    cancelled.cancel();
    expect(await cancelled.next()).toEqual({ value: undefined, done: true });
  }, 120_000);
});
