import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempFolder } from "../../test-support/test-temp";
import { OdaError } from "../errors";
import { withLockFile } from "./home-lock";
import {
  bootTimeMsOf,
  createLockFile,
  describeThisProcess,
  getconfClockTicks,
  isPidRunning,
  judgeHolder,
  readAuxvClockTicks,
  readLockStatus,
  readProcessStartTime,
} from "./lock";

/**
 * The `session.lock` rules (`docs/file-contract.md`, One writer) at their edges:
 * the one-second start-time tolerance, another host, a process of another
 * user, the exclusive create's other errors, and every reason sentence exactly.
 */

const me = describeThisProcess();
const started = readProcessStartTime(process.pid) as Date;

/** A pid that ran and has exited. */
function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout,
  );
}

function lockWith(content: string): string {
  const path = join(tempFolder("oda-lock-rules-"), "session.lock");
  writeFileSync(path, content);
  return path;
}

describe("the start-time tolerance of one second", () => {
  it("this machine shows start times (the rest of this block depends on it)", () => {
    expect(started).toBeInstanceOf(Date);
  });

  for (const off of [500, -500]) {
    it(`a start time ${off} ms off is the same process: live`, () => {
      const startedAt = new Date(started.getTime() + off).toISOString();
      expect(judgeHolder({ pid: process.pid, host: hostname(), startedAt })).toEqual({
        state: "live",
        reason: `Process ${process.pid} is running.`,
      });
    });
  }

  for (const off of [2000, -2000]) {
    it(`a start time ${off} ms off is a reused pid: stale`, () => {
      const startedAt = new Date(started.getTime() + off).toISOString();
      expect(judgeHolder({ pid: process.pid, host: hostname(), startedAt })).toEqual({
        state: "stale",
        reason: `Process ${process.pid} runs but started at ${started.toISOString()}, not ${startedAt}: the pid was reused.`,
      });
    });
  }

  it("a start time exactly 1000 ms off is still within the second: live", () => {
    for (const off of [1000, -1000]) {
      const startedAt = new Date(started.getTime() + off).toISOString();
      expect(judgeHolder({ pid: process.pid, host: hostname(), startedAt }).state).toBe("live");
    }
  });

  it("reads a process's start time as /proc shows it, computed here apart from the code", () => {
    const child = spawn("sleep", ["30"]);
    try {
      const pid = child.pid as number;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ticks = Number(stat.slice(stat.lastIndexOf(") ") + 2).split(" ")[19]);
      const btime = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
      const hz = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));
      expect(readProcessStartTime(pid)?.getTime()).toBe(btime * 1000 + (ticks * 1000) / hz);
    } finally {
      child.kill();
    }
    expect(readProcessStartTime(deadPid())).toBeNull();
  });

  it("a start time that is not a date cannot be compared: live", () => {
    expect(judgeHolder({ pid: process.pid, host: hostname(), startedAt: "yesterday" }).state).toBe("live");
  });
});

describe("this process's holder record", () => {
  it("names its start time exactly as /proc shows it, as another process would judge it", () => {
    const record = describeThisProcess();
    expect(record).toEqual({ pid: process.pid, host: hostname(), startedAt: started.toISOString() });
    expect(judgeHolder(record)).toEqual({ state: "live", reason: `Process ${process.pid} is running.` });
  });
});

describe("reason sentences, exactly", () => {
  it("no file", () => {
    expect(readLockStatus(join(tempFolder("oda-lock-rules-"), "session.lock"))).toEqual({
      state: "none",
      reason: "No lock file.",
    });
  });

  it("a lock that is a folder cannot be read", () => {
    const path = join(tempFolder("oda-lock-rules-"), "session.lock");
    mkdirSync(path);
    expect(readLockStatus(path)).toEqual({
      state: "unknown",
      reason: `The lock file cannot be read: ${path} is a folder, not a regular file; it is not read.`,
    });
  });

  it("content that names no process", () => {
    const path = lockWith('{"pid":0,"host":"h","startedAt":"s"}');
    expect(readLockStatus(path)).toEqual({
      state: "unknown",
      raw: '{"pid":0,"host":"h","startedAt":"s"}',
      reason: "The lock file does not name a process; it cannot be checked.",
    });
    for (const raw of [
      "null",
      "7",
      '{"pid":1.5,"host":"h","startedAt":"s"}',
      '{"pid":"12","host":"h","startedAt":"s"}',
      '{"pid":1,"host":2,"startedAt":"s"}',
      '{"pid":1,"host":"h","startedAt":2}',
      '{"pid":1,"host":"h"}',
    ]) {
      expect(readLockStatus(lockWith(raw))).toEqual({
        state: "unknown",
        raw,
        reason: "The lock file does not name a process; it cannot be checked.",
      });
    }
  });

  it("another computer", () => {
    const raw = JSON.stringify({ pid: process.pid, host: "oda-elsewhere", startedAt: me.startedAt });
    expect(readLockStatus(lockWith(raw))).toEqual({
      state: "unknown",
      pid: process.pid,
      host: "oda-elsewhere",
      startedAt: me.startedAt,
      raw,
      reason: "The lock is held on another computer (oda-elsewhere); it cannot be checked from here.",
    });
  });

  it("a process that is gone", () => {
    const pid = deadPid();
    const raw = JSON.stringify({ pid, host: hostname(), startedAt: me.startedAt });
    expect(readLockStatus(lockWith(raw))).toEqual({
      state: "stale",
      pid,
      host: hostname(),
      startedAt: me.startedAt,
      raw,
      reason: `Process ${pid} is no longer running.`,
    });
  });

  it("a running process, its start time matching", () => {
    const raw = JSON.stringify(me);
    expect(readLockStatus(lockWith(raw))).toEqual({
      ...me,
      raw,
      state: "live",
      reason: `Process ${me.pid} is running.`,
    });
  });
});

describe("a process of another user", () => {
  // The child loads the code as root, then becomes nobody (as setpriv --reuid=65534 --regid=65534
  // --clear-groups would) before it asks: so it reads the code from any folder, however private.
  it.skipIf(process.getuid?.() !== 0)(
    "is running: kill(pid, 0) answers EPERM, which is a live process, not a dead one",
    () => {
      // In this process too, so that coverage (StrykerJS's perTest) ties this test to isPidRunning's branches.
      expect([isPidRunning(process.pid), isPidRunning(deadPid())]).toEqual([true, false]);
      const lock = pathToFileURL(join(import.meta.dirname, "lock.ts")).href;
      const code = `const m = await import(${JSON.stringify(lock)});
      process.setgroups([]); process.setgid(65534); process.setuid(65534);
      process.stdout.write(JSON.stringify({ uid: process.getuid(), running: m.isPidRunning(${process.pid}),
        judged: m.judgeHolder(${JSON.stringify(me)}) }));`;
      const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
        encoding: "utf8",
        cwd: join(import.meta.dirname, "..", ".."),
      });
      expect(child.stderr).toBe("");
      expect(JSON.parse(child.stdout)).toEqual({
        uid: 65534,
        running: true,
        judged: { state: "live", reason: `Process ${process.pid} is running.` },
      });
    },
  );

  it("a pid that is gone is not running", () => {
    expect(isPidRunning(deadPid())).toBe(false);
  });
});

describe("readLockStatus", () => {
  it("a lock the system will not open is unknown, with the system's answer in words, marked unreadable", () => {
    // A regular file where the lock's folder should be: the open fails with ENOTDIR, a system error.
    const file = join(tempFolder("oda-lock-rules-"), "not-a-folder");
    writeFileSync(file, "x");
    const path = join(file, "session.lock");
    expect(readLockStatus(path)).toEqual({
      state: "unknown",
      reason: `${path} cannot be read: a part of its path is no longer a folder (the system answered "not a directory", ENOTDIR). It was probably replaced meanwhile; run the command again to see the folder as it is now.`,
      unreadable: true,
    });
  });

  it("closes the lock file it reads", () => {
    const path = lockWith(JSON.stringify(me));
    const open = () => readdirSync("/proc/self/fd").length;
    const before = open();
    for (let i = 0; i < 50; i++) readLockStatus(path);
    expect(open()).toBe(before);
  });
});

describe("createLockFile", () => {
  it("answers false only for an existing lock; any other error is thrown", () => {
    const dir = tempFolder("oda-lock-rules-");
    const path = join(dir, "session.lock");
    expect(createLockFile(path, me)).toBe(true);
    expect(readFileSync(path, "utf8")).toBe(`${JSON.stringify(me)}\n`);
    expect(createLockFile(path, { ...me, pid: 1 })).toBe(false);
    expect(readFileSync(path, "utf8")).toBe(`${JSON.stringify(me)}\n`);
    expect(() => createLockFile(join(dir, "missing", "session.lock"), me)).toThrow(
      expect.objectContaining({ code: "ENOENT" }),
    );
  });
});

describe("withLockFile and a lock held on another computer", () => {
  const busy = () => new OdaError("locked", "Another Oda Admin process is changing memories.");

  it("waits for it, then refuses, never taking it over (even when its pid is not running here)", async () => {
    const dir = tempFolder("oda-lock-rules-");
    const path = join(dir, ".lock");
    const content = JSON.stringify({ pid: deadPid(), host: `${hostname()}-elsewhere`, startedAt: me.startedAt });
    writeFileSync(path, content);
    let ran = false;
    await expect(
      withLockFile(path, { busy, waitMs: 150 }, async () => {
        ran = true;
      }),
    ).rejects.toThrow("Another Oda Admin process is changing memories.");
    expect(ran).toBe(false);
    expect(readFileSync(path, "utf8")).toBe(content);
    expect(existsSync(path)).toBe(true);
  });

  it("is taken once the other computer's lock is gone", async () => {
    const dir = tempFolder("oda-lock-rules-");
    const path = join(dir, ".lock");
    writeFileSync(path, JSON.stringify({ pid: 1, host: `${hostname()}-elsewhere`, startedAt: me.startedAt }));
    const holder = spawn(process.execPath, [
      "-e",
      `setTimeout(() => require("fs").unlinkSync(${JSON.stringify(path)}), 100)`,
    ]);
    const exited = new Promise((r) => holder.on("exit", r));
    expect(await withLockFile(path, { busy, waitMs: 30_000 }, async () => readFileSync(path, "utf8"))).toBe(
      `${JSON.stringify(me)}\n`,
    );
    await exited;
  });
});

describe("withLockFile's held lock", () => {
  const busy = () => new OdaError("locked", "busy");

  it("assertHeld passes while the file names this holder, and refuses once it does not", async () => {
    const path = join(tempFolder("oda-lock-rules-"), ".lock");
    const other = JSON.stringify({ pid: 1, host: "oda-elsewhere", startedAt: me.startedAt });
    await withLockFile(path, { busy }, async (held) => {
      expect(held.path).toBe(path);
      await expect(held.assertHeld()).resolves.toBeUndefined();
      writeFileSync(path, other);
      await expect(held.assertHeld()).rejects.toThrow("busy");
    });
    // Not ours any more: left in place.
    expect(readFileSync(path, "utf8")).toBe(other);
  });

  it("a lock path that is a folder or a symbolic link is waited for and refused, and left alone", async () => {
    const dir = tempFolder("oda-lock-rules-");
    const folder = join(dir, "folder.lock");
    mkdirSync(folder);
    await expect(withLockFile(folder, { busy, waitMs: 50 }, async () => "ran")).rejects.toThrow("busy");
    expect(statSync(folder).isDirectory()).toBe(true);
    const link = join(dir, "link.lock");
    const target = join(dir, "target");
    writeFileSync(target, JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: me.startedAt }));
    symlinkSync(target, link);
    await expect(withLockFile(link, { busy, waitMs: 50 }, async () => "ran")).rejects.toThrow("busy");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(existsSync(target)).toBe(true);
  });

  it("closes every file it opens, also while it waits", async () => {
    const path = join(tempFolder("oda-lock-rules-"), ".lock");
    const open = () => readdirSync("/proc/self/fd").length;
    const before = open();
    writeFileSync(path, JSON.stringify({ pid: 1, host: "oda-elsewhere", startedAt: me.startedAt }));
    await expect(withLockFile(path, { busy, waitMs: 100 }, async () => "ran")).rejects.toThrow("busy");
    rmSync(path);
    await withLockFile(path, { busy }, async () => "ran");
    expect(open()).toBe(before);
  });
});

// Written from the survivors of `npm run mutate` (docs/mutation.md): the start time's arithmetic needs the clock
// ticks per second and the boot time, each read once per process, so their readers are tested call by call.
describe("the clock ticks and the boot time behind a start time", () => {
  /** auxv's words: pairs of 64-bit little-endian (type, value). */
  const auxv = (...pairs: [number, number][]) => {
    const b = Buffer.alloc(pairs.length * 16);
    pairs.forEach(([type, value], i) => {
      b.writeBigUInt64LE(BigInt(type), i * 16);
      b.writeBigUInt64LE(BigInt(value), i * 16 + 8);
    });
    return b;
  };

  it("reads AT_CLKTCK from /proc/self/auxv, the number getconf CLK_TCK prints", () => {
    const getconf = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));
    expect(getconf).toBeGreaterThan(0);
    expect(readAuxvClockTicks()).toBe(getconf);
    expect(getconfClockTicks()).toBe(getconf);
  });

  it("walks auxv pair by pair to type 17, stopping at type 0 and at the last whole pair", () => {
    expect(readAuxvClockTicks(auxv([6, 4096], [17, 250], [0, 0]))).toBe(250);
    expect(readAuxvClockTicks(auxv([6, 4096], [25, 1], [17, 1000]))).toBe(1000); // no terminator: the last pair
    expect(readAuxvClockTicks(auxv([6, 4096], [0, 0], [17, 250]))).toBeUndefined(); // after the end
    expect(readAuxvClockTicks(auxv([17, 0], [0, 0]))).toBeUndefined(); // zero is no answer
    expect(readAuxvClockTicks(auxv([6, 4096], [16, 250], [0, 0]))).toBeUndefined();
    expect(readAuxvClockTicks(auxv([6, 4096]).subarray(0, 12))).toBeUndefined(); // 32-bit words: not read
    expect(readAuxvClockTicks(Buffer.concat([auxv([6, 4096]), Buffer.alloc(12)]))).toBeUndefined();
    expect(readAuxvClockTicks(Buffer.alloc(0))).toBeUndefined();
  });

  it("asks getconf for CLK_TCK, and takes 100 when it fails or prints no number", () => {
    const bin = tempFolder("oda-getconf-");
    const getconf = join(bin, "getconf");
    const pathWith = (script: string) => {
      writeFileSync(getconf, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
      return { PATH: bin };
    };
    expect(getconfClockTicks(pathWith('[ "$1" = CLK_TCK ] && [ $# = 1 ] && echo 250 || echo 7'))).toBe(250);
    expect(getconfClockTicks(pathWith("echo undefined"))).toBe(100);
    expect(getconfClockTicks(pathWith("echo 0"))).toBe(100);
    expect(getconfClockTicks(pathWith("echo 250; exit 1"))).toBe(100);
    expect(getconfClockTicks({ PATH: join(bin, "none") })).toBe(100);
  });

  it("reads the boot time from /proc/stat's btime line", () => {
    const line = readFileSync("/proc/stat", "utf8")
      .split("\n")
      .find((l) => l.startsWith("btime ")) as string;
    expect(bootTimeMsOf(readFileSync("/proc/stat", "utf8"))).toBe(Number(line.split(" ")[1]) * 1000);
    expect(bootTimeMsOf("cpu  1 2 3\nbtime 1764633600\nprocesses 9\n")).toBe(1764633600000);
    expect(bootTimeMsOf("cpu  1 2 3\nbtime 17\n")).toBe(17000);
    expect(bootTimeMsOf("xbtime 1764633600\n")).toBeNull();
    expect(bootTimeMsOf("btime 1764633600 5\n")).toBeNull();
    expect(bootTimeMsOf("btime x\n")).toBeNull();
    expect(bootTimeMsOf("cpu 1\n")).toBeNull();
  });
});
