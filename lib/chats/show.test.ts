import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { showChat } from "./show";

/**
 * `session show` reads each log through one open (issue 24): a log truncated or replaced after the open
 * is reported once, as a change, instead of a cut frame, a read "past byte" and a line count that
 * disagree, and the lines shown all come from the file that was opened.
 */

const LINES = 40_000;
let logs: string;
let path: string;
beforeEach(() => {
  logs = tempDir();
  const dir = join(logs, "_no-cwd", "c-show");
  mkdirSync(dir, { recursive: true });
  path = join(dir, "session.jsonl.zstd");
  const text = Array.from(
    { length: LINES },
    (_, i) =>
      `${JSON.stringify({ time: "2026-11-29T18:24:08.123Z", role: i % 2 ? "assistant" : "user", text: `line ${i + 1} ${"x".repeat(i % 700)}` })}\n`,
  ).join("");
  // Many frames (as Oda's saves leave them), so the read goes on past the cut.
  execFileSync("sh", ["-c", `split -l 2000 --filter='zstd -q -1 -c' > '${path}'`], { input: text });
});
afterEach(() => rmSync(logs, { recursive: true, force: true }));

describe("session show's one open", () => {
  it("reads a whole log once: details, line count and the lines asked for agree", async () => {
    const shown = await showChat(logs, "c-show", { from: LINES - 1, count: 5 });
    expect(shown.changed).toBeNull();
    expect(shown.chat.lines).toBe(LINES);
    expect(shown.read.total).toBe(LINES);
    expect(shown.read.lines.map((l) => l.n)).toEqual([LINES - 1, LINES]);
    expect(shown.chat.messages).toBe(LINES);
    const last = await showChat(logs, "c-show", { from: -1, count: 2 });
    expect(last.read.lines.map((l) => l.n)).toEqual([LINES - 1, LINES]);
  });

  it("reports a log truncated after it was opened once, as a change, with no cut-frame or damage errors", async () => {
    const size = statSync(path).size;
    const showing = showChat(logs, "c-show", { from: 1, count: 3 });
    // The log is open once showChat has returned its promise (the open comes before its first wait).
    truncateSync(path, Math.floor(size / 2));
    const shown = await showing;
    expect(shown.changed).toBe(
      `${path} was cut from ${size} to ${Math.floor(size / 2)} bytes while it was read; what is shown stops where the file did. Run the command again to read it as it is now. raw log: ${path}`,
    );
    expect(shown.read.error).toBeNull();
    expect(shown.read.tail).toBeNull();
    expect(shown.chat.problems.filter((p) => p.path === path)).toEqual([]);
    expect(shown.read.lines.map((l) => l.n)).toEqual([1, 2, 3]);
  });

  it("keeps reading the file it opened when another is renamed into its place, and says so once", async () => {
    const showing = showChat(logs, "c-show", { from: -1, count: 1 });
    writeFileSync(`${path}.new`, Buffer.alloc(0));
    renameSync(`${path}.new`, path);
    const shown = await showing;
    expect(shown.changed).toBe(
      `${path} was replaced by another file while it was read; what is shown is the file as it was when it was opened. Run the command again to read the new one. raw log: ${path}`,
    );
    expect(shown.chat.lines).toBe(LINES);
    expect(shown.read.lines.map((l) => l.n)).toEqual([LINES - 1]); // from -1: the last two lines, the first of them
  });
});
