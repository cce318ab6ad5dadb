import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import { afterAll, describe, expect, it } from "vitest";
import { makeText } from "../../bench/sessions-data";
import { createChat } from "../../test-support/chats/testing";

const base = mkdtempSync(join(tmpdir(), "oda-bundle-memory-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Decoded size of the generated log: more than the whole process may use, so it cannot be held. */
const LOG_BYTES = 256 * 2 ** 20;
/** The bound on the bundling process's peak resident memory (node and tsx alone take about 100 MiB; 203 MiB measured). */
const PEAK_BOUND = 220 * 2 ** 20;

/** A chat whose zstd log decodes to `bytes`, in 1 MiB frames, with a home folder every 64th line (so it is rewritten). */
async function bigLog(logs: string, bytes: number): Promise<void> {
  const w = createChat(logs, { id: "c-big", cwd: "/home/ana/big", created: "2026-11-01T00:00:00.000Z" });
  await w.appendEvents([{ type: "title", ts: "2026-11-01T00:00:00.000Z", title: "big" }]);
  await w.close();
  for (let n = 0, written = 0; written < bytes; ) {
    const lines: string[] = [];
    for (let size = 0; size < 2 ** 20; n++) {
      const text = `${makeText(n, 20 + (n % 150))}${n % 64 ? "" : ` see /home/ana/big/file-${n}.txt`}`;
      const line = `${JSON.stringify({ type: "message", ts: "2026-11-01T00:00:01.000Z", role: n % 2 ? "assistant" : "user", content: [{ type: "text", text }] })}\n`;
      lines.push(line);
      size += line.length;
    }
    const plain = Buffer.from(lines.join(""));
    appendFileSync(w.logPath, await compress(plain, 1));
    written += plain.length;
  }
}

describe("a bundle's memory", () => {
  it("stays bounded while a log larger than the bound is read, rewritten and archived, under a 48 MB heap", async () => {
    const logs = join(base, "logs");
    await bigLog(logs, LOG_BYTES);
    const child = spawnSync(
      process.execPath,
      [
        "--max-old-space-size=48",
        "--import",
        "tsx",
        join(import.meta.dirname, "..", "..", "test-support", "bundle", "memory-child.ts"),
        logs,
        join(base, "b.tar.gz"),
      ],
      { encoding: "utf8", maxBuffer: 1 << 20 },
    );
    expect(child.status, child.stderr).toBe(0);
    const result = JSON.parse(child.stdout) as {
      peakBytes: number;
      counts: { redactedFiles: number; replaced: Record<string, number> };
    };
    // The big log was rewritten (a home folder in some lines), not passed through.
    expect(result.counts.redactedFiles).toBeGreaterThanOrEqual(1);
    expect(result.counts.replaced.home).toBeGreaterThan(1000);
    expect(result.peakBytes, `peak RSS ${(result.peakBytes / 2 ** 20).toFixed(0)} MiB`).toBeLessThan(PEAK_BOUND);
    expect(PEAK_BOUND).toBeLessThan(LOG_BYTES);
  }, 600_000);
});
