/**
 * Special files named like a memory or settings.json (a FIFO here, made with
 * the real `mkfifo`): the CLI answers at once with the problem instead of
 * blocking on the open. Before openRegular, `memory list` never returned.
 */
import { execFile, execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { freshHomePerTest } from "../../test-support/memory/test-home";
import { memoryText, putFile } from "../../test-support/memory/testing";
import { listSet, listVersions, readSettings, restoreVersion } from ".";

const bin = fileURLToPath(new URL("../../bin/oda-admin", import.meta.url));

function run(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    // the timeout only turns a hang into a failure; a working CLI answers long before it
    execFile(process.execPath, [bin, ...args], { encoding: "utf8", timeout: 60_000 }, (error, stdout) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }),
    );
  });
}

let home: string;
freshHomePerTest((h) => (home = h));
beforeEach(async () => {
  await putFile(home, "memory/global/0000000a", memoryText("Fine", "A readable memory."));
  execFileSync("mkfifo", [join(home, "memory", "global", "0000000b")]);
  execFileSync("mkfifo", [join(home, "settings.json")]);
});

const FIFO_PROBLEM = "The file cannot be read: it is a FIFO (named pipe), not a regular file.";
const SETTINGS_PROBLEM =
  "settings.json cannot be read (it is a FIFO (named pipe), not a regular file); the defaults are used.";

describe("a FIFO named like a memory or settings.json", () => {
  it("is a problem file with the 'cannot be read' sentence, and settings fall back to the defaults", async () => {
    const set = await listSet(home, null);
    expect(set.memories.map((m) => m.id)).toEqual(["0000000a"]);
    expect(set.problems).toEqual([{ id: "0000000b", path: "memory/global/0000000b", message: FIFO_PROBLEM }]);
    const settings = await readSettings(home);
    expect(settings.problems).toEqual([{ path: "settings.json", message: SETTINGS_PROBLEM }]);
    expect(settings.limits.textMaxChars).toBe(2000);
  });

  it("lets `memory list` and `doctor` answer with the problems", async () => {
    const list = await run(["memory", "list", "--home", home, "--json"]);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).problems).toEqual([
      { id: "0000000b", path: "memory/global/0000000b", message: FIFO_PROBLEM },
    ]);
    const doctor = await run(["doctor", "--home", home]);
    expect(doctor.stdout).toContain(`memory/global/0000000b: ${FIFO_PROBLEM}`);
    expect(doctor.stdout).toContain(`settings.json: ${SETTINGS_PROBLEM}`);
  });

  it("named like a version is skipped by the history and refused by a restore, without blocking", async () => {
    const history = join(home, "memory-history", "global", "0000000a");
    await putFile(home, "memory-history/global/0000000a/20261129T182408123Z-chat", memoryText("Old", "Older text."));
    execFileSync("mkfifo", [join(history, "20261129T182408124Z-chat")]);
    const versions = await listVersions(home, null, "0000000a");
    expect(versions.map((v) => v.name)).toEqual(["20261129T182408123Z-chat"]);
    await expect(restoreVersion(home, null, "0000000a", "20261129T182408124Z-chat")).rejects.toThrow(
      'No saved version "20261129T182408124Z-chat" of this memory exists.',
    );
  });
});
