import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTinyFrameLog } from "../../test-support/chats/testing";
import { runCli } from "../../test-support/run-cli";
import { decodeZstd, MAX_BATCH_FRAMES, stats } from "./zstd/decode";

/**
 * A valid log of tiny zstd frames (issue 24): one 600 KB line cut into 2-byte raw frames, 300,000 frames
 * in a 3.3 MB file. Before, every native batch kept an object per frame and memory grew about 1.1 KB per
 * frame: `session show` peaked at 450 MB here (1.15 GB at a million frames), and the ratio guard never
 * fired because the output is smaller than the input.
 */

const FRAMES = 300_000;
/** The CLI's own peak (tsx, the sources, the first decode) is about 150 MB; the bug took it past 400. */
const PEAK_RSS_MB = 280;

let root: string;
let content: Buffer;
let logPath: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "oda-tiny-frames-"));
  const dir = join(root, "logs", "_no-cwd", "c-tiny");
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(root, "home"));
  const head = '{"time":"2026-11-29T18:24:08.123Z","role":"user","text":"hello"}\n';
  const pre = '{"time":"2026-11-29T18:25:00.000Z","role":"assistant","text":"';
  content = Buffer.alloc(FRAMES * 2, 0x61);
  content.write(head, 0);
  content.write(pre, head.length);
  content.write('"}\n', content.length - 3);
  logPath = join(dir, "session.jsonl.zstd");
  expect(writeTinyFrameLog(logPath, content)).toBe(FRAMES);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the CLI in a child process and reads its peak RSS (the kernel's, workers included) as it exits. */
async function cliPeak(args: string[]): Promise<{ code: number | null; out: string; peakMb: number }> {
  const report =
    "data:text/javascript,process.on('exit',()=>process.stderr.write('\\nmaxrss:'+process.resourceUsage().maxRSS+'\\n'))";
  const run = await runCli(args, { nodeArgs: ["--import", report] });
  const kb = Number(run.err.match(/maxrss:(\d+)/)?.[1]);
  if (!kb) throw new Error(`no peak RSS reported:\n${run.err}`);
  return { code: run.code, out: run.out, peakMb: kb / 1024 };
}

describe("a log of many tiny zstd frames", () => {
  it("decodes exactly, with every native batch joining at most MAX_BATCH_FRAMES frames", async () => {
    const fd = openSync(logPath, "r");
    const parts: Buffer[] = [];
    stats.maxBatchFrames = 0;
    try {
      for await (const item of decodeZstd(fd, statSync(logPath).size)) if (item.type === "data") parts.push(item.data);
    } finally {
      closeSync(fd);
    }
    expect(Buffer.concat(parts).equals(content)).toBe(true);
    expect(stats.maxBatchFrames).toBeGreaterThan(0);
    expect(stats.maxBatchFrames).toBeLessThanOrEqual(MAX_BATCH_FRAMES);
  });

  it("`session show` stays within its memory bound, whatever the frame count", async () => {
    const run = await cliPeak([
      "session",
      "show",
      "c-tiny",
      "--home",
      join(root, "home"),
      "--logs",
      join(root, "logs"),
      "--state",
      join(root, "state"),
      "--count",
      "2",
    ]);
    expect(run.out).toContain("Lines 1..2 of 2");
    expect(run.code).toBe(0);
    expect(run.peakMb).toBeLessThan(PEAK_RSS_MB);
  }, 120_000);
});
