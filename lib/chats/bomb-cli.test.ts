import { execFile, execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";

const run = promisify(execFile);

/** The output of a run that must exit with `code` (`execFile` rejects on any other than 0). */
async function exitsWith(
  code: number,
  running: Promise<{ stdout: string; stderr: string }>,
): Promise<{ stdout: string; stderr: string }> {
  try {
    const done = await running;
    expect(0).toBe(code);
    return done;
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error;
    expect(failed.code).toBe(code);
    return { stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}
const BIN = resolve(import.meta.dirname, "../../bin/oda-admin");

/** A chat folder under `_no-cwd` whose format 1 log is written by `zstd` from a shell pipeline. */
function bombChat(logs: string, id: string, generator: string): string {
  const dir = join(logs, "_no-cwd", id);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "session.jsonl.zstd");
  execFileSync("sh", ["-c", `${generator} | zstd -q -3 -c > '${path}'`]);
  return path;
}

const FIRST = `echo '{"time":"2026-11-29T18:24:08.123Z","role":"user","text":"hello"}'`;

describe("the CLI on hostile logs (real processes)", () => {
  it("sessions list and session show answer a newline bomb with the problem sentence", async () => {
    const logs = tempDir();
    const path = bombChat(logs, "c-bomb", `{ ${FIRST}; yes '' | head -c 64M; }`);
    const sentence = new RegExp(
      `${path} decodes to more than 1000 times its compressed size \\(\\d+ bytes from its first \\d+ bytes\\), as a zstd bomb does; reading stopped at byte \\d+ of the file \\(decoded byte \\d+\\); every line before it is kept\\. raw log: ${path}`,
    );
    const list = await run(process.execPath, [BIN, "sessions", "list", "--logs", logs, "--json"], {
      timeout: 120_000,
    });
    const doc = JSON.parse(list.stdout);
    expect(doc.chats[0].problems).toEqual(expect.arrayContaining([expect.stringMatching(sentence)]));
    expect(doc.chats[0].title).toBe("hello");

    // The problem is printed, so the exit is 1 (issue 24: never an error line with exit 0).
    const show = await exitsWith(
      1,
      run(process.execPath, [BIN, "session", "show", "c-bomb", "--logs", logs, "--count", "2"], { timeout: 120_000 }),
    );
    expect(show.stdout).toContain('     1  @0  {"time":"2026-11-29T18:24:08.123Z","role":"user","text":"hello"}');
    expect(show.stdout).toMatch(sentence);
  }, 240_000);

  it("session show gives a line over --max-line-bytes as its head with its length", async () => {
    const logs = tempDir();
    bombChat(logs, "c-long", `{ ${FIRST}; printf '{"text":"'; seq -s ' ' 1 200000 | head -c 1000000; echo '"}'; }`);
    const show = await exitsWith(
      1,
      run(process.execPath, [BIN, "session", "show", "c-long", "--logs", logs, "--max-line-bytes", "65536", "--json"], {
        timeout: 120_000,
      }),
    );
    const doc = JSON.parse(show.stdout);
    expect(doc.lines[1].length).toBe(1000011);
    expect(doc.lines[1].raw).toHaveLength(4096);
    expect(doc.lines[1].error).toBe(
      "Line 2 is 1000011 bytes long (976.6 KiB), over the limit of 64.0 KiB for one line; only its first 4096 bytes are shown.",
    );
    expect(doc.chat.problems.map((p: { message: string }) => p.message)).toContain(
      `Line 2 of the log (at decoded byte 65) is 1000011 bytes long, over the limit of 65536 bytes for one line; it is shown truncated and can be downloaded alone. raw log: ${join(logs, "_no-cwd", "c-long", "session.jsonl.zstd")}`,
    );
  }, 240_000);
});
