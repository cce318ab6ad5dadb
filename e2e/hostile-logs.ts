import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

/**
 * Hostile chat logs for the e2e spec and the fuzz bench, written by the real
 * `zstd` CLI from streaming generators, so gigabytes of decoded text take a
 * few hundred KB on disk. Each chat is format 1 (`session.jsonl.zstd`) with a
 * first user line "hello", so the list has a title for it.
 */

/** Decoded sizes of the hostile parts. */
export interface HostileSizes {
  /** Zeros after the first line (a zstd bomb of one endless line). */
  zeros: string;
  /** Newlines after the first line (a bomb of empty lines). */
  newlines: string;
  /** Bytes of one long line of numbers (compresses ~30×, so it is no bomb: a line over the line limit). */
  longLine: string;
}

/** The issue's cases: 5 GB of zeros, 3 GB of newlines, a 200 MB line. */
export const ISSUE_SIZES: HostileSizes = { zeros: "5G", newlines: "3G", longLine: "200M" };

const FIRST = `echo '{"time":"2026-11-29T18:24:08.123Z","role":"user","text":"hello"}'`;
const LAST = `echo '{"time":"2026-11-29T18:30:00.000Z","role":"assistant","text":"bye"}'`;

function zstdChat(logs: string, id: string, generator: string): Promise<string> {
  const dir = join(logs, "_no-cwd", id);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "session.jsonl.zstd");
  return new Promise((done, fail) => {
    const child = spawn("sh", ["-c", `{ ${generator}; } | zstd -q -3 -c > '${path}'`], { stdio: "ignore" });
    child.once("error", fail);
    child.once("exit", (code) => (code === 0 ? done(path) : fail(new Error(`making ${path} failed (${code})`))));
  });
}

/** Writes the chats c-zeros, c-newlines, c-long-line (the long line is line 2) and c-ok (three ordinary lines). */
export async function makeHostileLogs(logs: string, sizes: HostileSizes): Promise<Record<string, string>> {
  const [zeros, newlines, longLine, ok] = await Promise.all([
    zstdChat(logs, "c-zeros", `${FIRST}; head -c ${sizes.zeros} /dev/zero`),
    zstdChat(logs, "c-newlines", `${FIRST}; yes '' | head -c ${sizes.newlines}`),
    zstdChat(
      logs,
      "c-long-line",
      `${FIRST}; printf '{"time":"2026-11-29T18:25:00.000Z","role":"assistant","text":"'; seq -s ' ' 1 100000000 | head -c ${sizes.longLine}; echo '"}'; ${LAST}`,
    ),
    zstdChat(logs, "c-ok", `${FIRST}; ${LAST}; ${LAST}`),
  ]);
  return { "c-zeros": zeros, "c-newlines": newlines, "c-long-line": longLine, "c-ok": ok };
}
