import { execFileSync, spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { rebuildDetails } from "./details";
import { DEFAULT_LOG_LIMITS, readLogLimits, setLogLimits } from "./limits";
import { readLogLines } from "./line-index";
import { streamLineBytes } from "./line-stream";
import { decodeZstd } from "./zstd/decode";
import { FrameError } from "./zstd/frames";

/** Runs a shell pipeline into `zstd` (the real CLI) and returns the file written. */
function zstdOf(dir: string, name: string, generator: string, level = 3): string {
  const path = join(dir, name);
  execFileSync("sh", ["-c", `${generator} | zstd -q -${level} -c > '${path}'`]);
  return path;
}

const MiB = 1024 * 1024;
afterEach(() => {
  setLogLimits(null);
});

describe("decoding under the log limits", () => {
  it("streams a bomb in pieces of about 1 MiB and stops it at the ratio guard with the offsets", async () => {
    const dir = tempDir();
    const path = zstdOf(dir, "zeros.zstd", "head -c 96M /dev/zero");
    const size = statSync(path).size;
    const fd = openSync(path, "r");
    let biggest = 0;
    let total = 0;
    let stop: FrameError | null = null;
    try {
      for await (const item of decodeZstd(fd, size, { limits: { ...DEFAULT_LOG_LIMITS, ratioFloor: 4 * MiB } })) {
        if (item.type === "data") {
          biggest = Math.max(biggest, item.data.length);
          total += item.data.length;
        }
      }
    } catch (e) {
      if (!(e instanceof FrameError)) throw e;
      stop = e;
    } finally {
      closeSync(fd);
    }
    expect(biggest).toBeLessThanOrEqual(MiB + 128 * 1024);
    expect(stop?.kind).toBe("ratio");
    expect(stop?.decoded).toBe(total);
    expect(total).toBeLessThanOrEqual(4 * MiB);
    expect(stop?.offset).toBeGreaterThan(0);
    expect(stop?.offset).toBeLessThan(size);
  });

  it("reports a newline bomb at its default limits with a sentence, keeping the lines before the stop", async () => {
    const dir = tempDir();
    const path = zstdOf(dir, "nl.zstd", "yes '' | head -c 300M");
    const rebuilt = await rebuildDetails(path, true);
    expect(rebuilt.error).toMatch(
      new RegExp(
        `^${path} decodes to more than 1000 times its compressed size \\(\\d+ bytes from its first \\d+ bytes\\), as a zstd bomb does; reading stopped at byte \\d+ of the file \\(decoded byte \\d+\\); every line before it is kept\\. raw log: ${path}$`,
      ),
    );
    expect(rebuilt.lines).toBeLessThanOrEqual(DEFAULT_LOG_LIMITS.ratioFloor);
    const read = await readLogLines(path, true, 5, 2);
    expect(read.lines.map((l) => [l.n, l.error])).toEqual([
      [5, "Line 5 is not a JSON object."],
      [6, "Line 6 is not a JSON object."],
    ]);
  });

  it("stops at the absolute cap on decoded bytes", async () => {
    const dir = tempDir();
    const path = zstdOf(dir, "seq.zstd", `seq 1 400000 | sed 's/.*/{"n":&}/'`);
    setLogLimits({ maxDecodedBytes: MiB });
    const rebuilt = await rebuildDetails(path, true);
    expect(rebuilt.error).toMatch(
      new RegExp(
        `^${path} decodes to more than ${MiB} bytes \\(1\\.0 MiB\\), the limit for one log; reading stopped at byte \\d+ of the file \\(decoded byte \\d+\\); every line before it is kept\\. raw log: ${path}$`,
      ),
    );
    expect(rebuilt.lines).toBeGreaterThan(0);
    expect(rebuilt.badLines).toEqual([]);
  });
});

describe("a line over the line limit", () => {
  it("is kept as its head with its length, reported, and the lines after it still read", async () => {
    const dir = tempDir();
    const path = zstdOf(
      dir,
      "long.zstd",
      `{ echo '{"a":1}'; printf '{"text":"'; seq -s ' ' 1 100000 | head -c 500000; echo '"}'; echo '{"b":2}'; }`,
    );
    setLogLimits({ maxLineBytes: 64 * 1024 });
    const read = await readLogLines(path, true, 1, 3);
    const long = read.lines[1];
    expect(long?.length).toBe(500011);
    expect(long?.raw.length).toBe(4096);
    expect(long?.error).toBe(
      "Line 2 is 500011 bytes long (488.3 KiB), over the limit of 64.0 KiB for one line; only its first 4096 bytes are shown.",
    );
    expect(read.lines[2]?.json).toEqual({ b: 2 });
    const rebuilt = await rebuildDetails(path, true);
    expect(rebuilt.longLines).toEqual([{ n: 2, offset: 8, length: 500011 }]);
    expect(rebuilt.badLines).toEqual([]);
    expect(rebuilt.lines).toBe(3);
    const parts: Buffer[] = [];
    for await (const piece of streamLineBytes(path, true, { line: 0, dec: 0, comp: 0 }, 2)) parts.push(piece);
    const whole = Buffer.concat(parts).toString();
    expect(whole).toHaveLength(500011);
    expect(whole.startsWith('{"text":"1 2 3')).toBe(true);
    expect(whole.endsWith('"}')).toBe(true);
  });
});

describe("readLogLimits", () => {
  it("reads the admin state's logs limits, reporting a bad value and using its default", () => {
    const state = tempDir();
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, "settings.json"), JSON.stringify({ logs: { maxLineBytes: 1048576, maxRatio: "x" } }));
    const { limits, problems } = readLogLimits(state);
    expect(limits).toEqual({ ...DEFAULT_LOG_LIMITS, maxLineBytes: 1048576 });
    expect(problems).toEqual([
      `logs.maxRatio in ${join(state, "settings.json")} is invalid; the default 1000 is used.`,
    ]);
    expect(readLogLimits(tempDir())).toEqual({ limits: DEFAULT_LOG_LIMITS, problems: [] });
  });

  it("answers a FIFO named settings.json at once with a sentence, through the one settings reader", () => {
    const state = tempDir();
    mkdirSync(state, { recursive: true });
    const path = join(state, "settings.json");
    execFileSync("mkfifo", [path]);
    // A writer that would, after a while, free a read that blocked on the FIFO (then no sentence is given).
    const writer = spawn("sh", ["-c", `sleep 3; echo '{}' > '${path}'`], { stdio: "ignore" });
    try {
      expect(readLogLimits(state)).toEqual({
        limits: DEFAULT_LOG_LIMITS,
        problems: [`${path} cannot be read: it is a FIFO (named pipe), not a regular file`],
      });
    } finally {
      writer.kill("SIGKILL");
    }
  });

  it("takes each value within its range only: whole numbers of bytes, the ratio any number", () => {
    const state = tempDir();
    mkdirSync(state, { recursive: true });
    const path = join(state, "settings.json");
    const logs = { maxDecodedBytes: 1024 ** 2 - 1, maxLineBytes: 65536.5, maxRatio: 10.5, ratioFloor: 2 ** 50 };
    writeFileSync(path, JSON.stringify({ logs }));
    expect(readLogLimits(state)).toEqual({
      limits: { ...DEFAULT_LOG_LIMITS, maxRatio: 10.5, ratioFloor: 2 ** 50 },
      problems: [
        `logs.maxDecodedBytes in ${path} is invalid; the default ${DEFAULT_LOG_LIMITS.maxDecodedBytes} is used.`,
        `logs.maxLineBytes in ${path} is invalid; the default ${DEFAULT_LOG_LIMITS.maxLineBytes} is used.`,
      ],
    });
    writeFileSync(
      path,
      JSON.stringify({ logs: { maxRatio: 1e9 + 1, ratioFloor: 2 ** 50 + 1, maxLineBytes: 1024 ** 3 } }),
    );
    expect(readLogLimits(state).limits).toEqual({ ...DEFAULT_LOG_LIMITS, maxLineBytes: 1024 ** 3 });
    expect(readLogLimits(state).problems).toHaveLength(2);
  });
});
