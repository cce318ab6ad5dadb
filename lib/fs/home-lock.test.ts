import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OdaError } from "../errors";
import { brokenLockSentence, inspectLockFile, lockFileProblem, withLockFile } from "./home-lock";
import { readProcessStartTime } from "./lock";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "oda-home-lock-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const busy = () => new OdaError("locked", "busy");

describe("withLockFile", () => {
  it("creates the lock naming this process while the work runs, and removes it after", async () => {
    const path = join(dir, ".lock");
    const seen = await withLockFile(path, { busy }, async () => JSON.parse(await readFile(path, "utf8")));
    expect(seen).toMatchObject({ pid: process.pid, host: hostname() });
    expect(existsSync(path)).toBe(false);
  });

  it("takes over a lock whose holder is gone, leaving nothing beside it", async () => {
    const path = join(dir, ".lock");
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => dead.on("exit", r));
    await writeFile(path, JSON.stringify({ pid: dead.pid, host: hostname(), startedAt: new Date().toISOString() }));
    expect(await withLockFile(path, { busy }, async () => "ran")).toBe("ran");
    expect(await readdir(dir)).toEqual([]);
  });

  it("waits for a live holder, then refuses with the busy error, leaving its lock alone", async () => {
    const path = join(dir, ".lock");
    const live = spawn("sleep", ["30"]);
    try {
      const startedAt = (readProcessStartTime(live.pid as number) ?? new Date()).toISOString();
      const content = JSON.stringify({ pid: live.pid, host: hostname(), startedAt });
      await writeFile(path, content);
      await expect(withLockFile(path, { busy, waitMs: 200 }, async () => "ran")).rejects.toThrow("busy");
      expect(await readFile(path, "utf8")).toBe(content);
    } finally {
      live.kill();
    }
  });

  it("queues holders within one process instead of refusing them", async () => {
    const path = join(dir, ".lock");
    const order: string[] = [];
    const hold = (name: string) =>
      withLockFile(path, { busy, waitMs: 0 }, async () => {
        order.push(`${name} in`);
        await new Promise((r) => setTimeout(r, 20));
        order.push(`${name} out`);
      });
    await Promise.all([hold("a"), hold("b")]);
    expect(order).toEqual(["a in", "a out", "b in", "b out"]);
  });
});

describe("a lock's name holding no lock (issue 24)", () => {
  const broken = (problem: string) => new OdaError("refused", problem);
  const cases: [string, (path: string) => Promise<void>, string][] = [
    ["a folder", (p) => mkdir(p), "a folder"],
    ["a FIFO", async (p) => void execFileSync("mkfifo", [p]), "a FIFO (named pipe)"],
    ["an empty file", (p) => writeFile(p, ""), "an empty file"],
    [
      "garbage text",
      (p) => writeFile(p, "not a lock\n"),
      'a 11-byte file that does not hold a lock\'s {"pid", "host", "startedAt"}',
    ],
    [
      "a dangling link",
      (p) => symlink(join(dir, "nowhere"), p),
      `a symbolic link to ${"DIR"}/nowhere, which does not exist`,
    ],
    [
      "a link to a lock that exists",
      async (p) => {
        await writeFile(join(dir, "real"), JSON.stringify({ pid: 1, host: hostname(), startedAt: "x" }));
        await symlink(join(dir, "real"), p);
      },
      `a symbolic link to ${"DIR"}/real`,
    ],
    [
      "a socket",
      // A process that binds a Unix socket there and exits without closing it leaves the socket file behind.
      async (p) =>
        void spawnSync(process.execPath, [
          "-e",
          `require("node:net").createServer().listen(${JSON.stringify(p)}, () => process.exit(0))`,
        ]),
      "a socket",
    ],
    // A character device (/dev/null's numbers): mknod needs root, which this suite runs as.
    ["a device", async (p) => void execFileSync("mknod", [p, "c", "1", "3"]), "a device"],
  ];
  for (const [name, make, what] of cases) {
    it(`refuses at once with a sentence naming the path and what it is: ${name}`, async () => {
      const path = join(dir, ".lock");
      await make(path);
      const expected = brokenLockSentence(path, what.replace("DIR", dir));
      expect(await lockFileProblem(path)).toBe(expected);
      // A wait far longer than the test's own timeout: the refusal must not wait for a holder.
      const run = withLockFile(path, { busy, broken, waitMs: 3_600_000 }, async () => "ran");
      await expect(run).rejects.toThrow(expected);
      expect(expected).toContain("oda-admin repair apply lock:memory-history");
    }, 20_000);
  }

  it("waits for another computer's lock as briefly as for a live one, then refuses with a sentence naming it", async () => {
    const path = join(dir, ".lock");
    const content = JSON.stringify({ pid: 42, host: "elsewhere.example", startedAt: "2026-11-29T18:24:08.123Z" });
    await writeFile(path, content);
    const expected = brokenLockSentence(
      path,
      "the lock of process 42 on another computer (elsewhere.example), which cannot be checked from here",
    );
    expect(await lockFileProblem(path)).toBe(expected);
    let ran = false;
    const run = withLockFile(path, { busy, broken, waitMs: 200 }, async () => {
      ran = true;
    });
    await expect(run).rejects.toThrow(expected);
    expect(ran).toBe(false);
    expect(await readFile(path, "utf8")).toBe(content);
  });

  it("inspects an absent lock as absent, and a name the system will not look at as broken with its answer", async () => {
    expect(await inspectLockFile(join(dir, ".lock"))).toEqual({ state: "absent" });
    await writeFile(join(dir, "file"), "x");
    const path = join(dir, "file", ".lock");
    expect(await inspectLockFile(path)).toEqual({
      state: "broken",
      what: "cannot be looked at (the system answered ENOTDIR)",
    });
  });

  it("a live holder is waited for and refused as busy, not as a broken lock", async () => {
    const path = join(dir, ".lock");
    const content = JSON.stringify({
      pid: process.pid,
      host: hostname(),
      startedAt: (readProcessStartTime(process.pid) as Date).toISOString(),
    });
    await writeFile(path, content);
    const run = withLockFile(path, { busy, broken, waitMs: 100 }, async () => "ran");
    await expect(run).rejects.toThrow(/^busy$/);
    expect(await readFile(path, "utf8")).toBe(content);
  });

  it("is no problem when absent or held by a live process", async () => {
    const path = join(dir, ".lock");
    expect(await lockFileProblem(path)).toBeNull();
    await writeFile(path, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString() }));
    expect(await lockFileProblem(path)).toBeNull();
  });
});
