import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileFolder, makeFifo, makeHostileFolder } from "../../test-support/chats/hostile-folder";
import { type CliRun, runCli } from "../../test-support/run-cli";
import { groupName } from "./names";

/**
 * The CLI over a hostile log folder, as real processes (issue 10): each command
 * answers with the problems' sentences instead of blocking on a FIFO, and
 * prints nothing from outside the log folder. On the old code `sessions list`
 * and `doctor` never returned (the kill below is only a bound for that case).
 */

// Generous: a busy machine starts tsx slowly; a hang is what this bounds, not speed.
const HANG_MS = 100_000;
const TEST_MS = 120_000;

function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(args, { env, hangMs: HANG_MS });
}

let root: string;
let h: HostileFolder;
let home: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "oda-hostile-cli-"));
  h = await makeHostileFolder(root);
  home = join(root, "home");
  mkdirSync(home);
  // settings.json as a FIFO: the log folder's form falls back to its default instead of blocking.
  makeFifo(join(home, "settings.json"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dir = (id: string) => h.dirs[id] as string;

describe("oda-admin over FIFOs, sockets and links in the log folder", () => {
  it(
    "sessions list names each chat's problem and the folder's, and reads nothing outside",
    async () => {
      const run = await cli(["sessions", "list", "--logs", h.logs, "--home", home, "--json"]);
      expect(run.code).toBe(0);
      const doc = JSON.parse(run.out) as { chats: { id: string; problems: string[] }[]; problems: string[] };
      const byId = Object.fromEntries(doc.chats.map((c) => [c.id, c.problems]));
      const fifoLog = join(dir("c-fifo"), "session.v4.jsonl.zstd");
      expect(byId["c-fifo"]).toEqual([
        `${fifoLog} is a FIFO (named pipe), not a regular file; it is not read. raw log: ${fifoLog}`,
      ]);
      expect(byId["c-socket"]?.[0]).toMatch(
        /session\.v4\.jsonl\.zstd is a socket, not a regular file; it is not read\./,
      );
      expect(byId["c-cache-fifo"]?.[0]).toMatch(/session\.cache\.json is a FIFO \(named pipe\)/);
      expect(byId["c-lock-fifo"]?.[0]).toMatch(/session\.lock is a FIFO \(named pipe\)/);
      const passwd = join(dir("c-passwd"), "session.jsonl");
      expect(byId["c-passwd"]).toEqual([
        `${passwd} is a symbolic link that leads outside the log folder; it is not read. raw log: ${passwd}`,
      ]);
      expect(byId["c-loop"]?.[0]).toMatch(/is a symbolic link loop; it is not read\. raw log: /);
      expect(byId["c-good"]).toEqual([]);
      expect(doc.problems).toContain(
        `${dir("c-outside-folder")} is a symbolic link that leads outside the log folder; it is not read.`,
      );
      expect(doc.problems).toContain(`${dir("c-loop-folder")} is a symbolic link loop; it is not read.`);
      expect(run.out + run.err).not.toContain(h.canary);
    },
    TEST_MS,
  );

  it(
    "doctor lists every problem with its path and exits 1",
    async () => {
      const run = await cli(["doctor", "--logs", h.logs]);
      expect(run.code).toBe(1);
      const rel = (p: string) => relative(h.logs, p);
      expect(run.out).toContain(
        `  ${rel(dir("c-outside-folder"))}: ${dir("c-outside-folder")} is a symbolic link that leads outside the log folder; it is not read.`,
      );
      expect(run.out).toContain(
        `  ${rel(join(dir("c-fifo"), "session.v4.jsonl.zstd"))}: ${join(dir("c-fifo"), "session.v4.jsonl.zstd")} is a FIFO`,
      );
      expect(run.out).toContain(`${join(h.logs, groupName("/elsewhere"))} is a symbolic link that leads outside`);
      expect(run.out).toContain(`${join(dir("c-lock-fifo"), "session.lock")} is a FIFO (named pipe)`);
      expect(run.out).not.toContain(h.canary);
    },
    TEST_MS,
  );

  it(
    "session show answers a FIFO log, a chat folder linked outside and a log linked outside with the sentence",
    async () => {
      const fifoLog = join(dir("c-fifo"), "session.v4.jsonl.zstd");
      const [fifo, folder, link, lock] = await Promise.all([
        cli(["session", "show", "c-fifo", "--logs", h.logs]),
        cli(["session", "show", "c-outside-folder", "--logs", h.logs]),
        cli(["session", "show", "c-passwd", "--logs", h.logs, "--generation", "session.jsonl", "--raw"]),
        cli(["session", "show", "c-lock-fifo", "--logs", h.logs]),
      ]);
      expect(fifo.code).not.toBe(0);
      expect(fifo.err).toContain(
        `${fifoLog} is a FIFO (named pipe), not a regular file; it is not read. raw log: ${fifoLog}`,
      );
      expect(folder.code).not.toBe(0);
      expect(folder.err).toContain(
        `${dir("c-outside-folder")} is a symbolic link that leads outside the log folder; it is not read.`,
      );
      const passwd = join(dir("c-passwd"), "session.jsonl");
      expect(link.code).not.toBe(0);
      expect(link.err).toContain(`${passwd} is a symbolic link that leads outside the log folder; it is not read.`);
      // The lock's problem is printed, so the exit is 1 (issue 24); the lines are shown all the same.
      expect(lock.code).toBe(1);
      expect(lock.out).toContain("Answer of c-lock-fifo");
      for (const run of [fifo, folder, link, lock]) expect(run.out + run.err).not.toContain(h.canary);
    },
    TEST_MS,
  );
});
