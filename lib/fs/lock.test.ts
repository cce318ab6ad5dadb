import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLockFile, describeThisProcess, readLockStatus, readProcessStartTime, removeStaleLock } from "./lock";

const dir = mkdtempSync(join(tmpdir(), "oda-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function lockWith(content: string): string {
  const path = join(dir, `session-${n++}.lock`);
  writeFileSync(path, content);
  return path;
}

describe("session.lock liveness", () => {
  it("no file is none", () => {
    expect(readLockStatus(join(dir, "missing.lock")).state).toBe("none");
  });

  it("a running process with its real start time is live", () => {
    const me = describeThisProcess();
    expect(readLockStatus(lockWith(JSON.stringify(me)))).toMatchObject({ state: "live", pid: process.pid });
  });

  it("a live child process is live, and stale once it has exited", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    const pid = child.pid as number;
    await new Promise((r) => setTimeout(r, 100));
    const started = readProcessStartTime(pid) ?? new Date();
    const path = lockWith(JSON.stringify({ pid, host: hostname(), startedAt: started.toISOString() }));
    expect(readLockStatus(path).state).toBe("live");
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    expect(readLockStatus(path)).toMatchObject({ state: "stale", reason: `Process ${pid} is no longer running.` });
  });

  it("a dead pid is stale", () => {
    const dead = Number(
      spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout,
    );
    expect(
      readLockStatus(lockWith(JSON.stringify({ pid: dead, host: hostname(), startedAt: new Date().toISOString() })))
        .state,
    ).toBe("stale");
  });

  it("a reused pid (running, but started at another time) is stale", () => {
    const startedAt = new Date(Date.now() - 3_600_000).toISOString();
    const status = readLockStatus(lockWith(JSON.stringify({ pid: process.pid, host: hostname(), startedAt })));
    expect(status.state).toBe("stale");
    expect(status.reason).toContain("the pid was reused");
  });

  it("a lock held on another host is unknown (treated as live)", () => {
    const status = readLockStatus(
      lockWith(JSON.stringify({ pid: 1, host: `${hostname()}-elsewhere`, startedAt: new Date().toISOString() })),
    );
    expect(status.state).toBe("unknown");
  });

  it("garbage content is unknown", () => {
    for (const content of [
      "",
      "not json",
      "[]",
      '{"pid":"12","host":"x","startedAt":"y"}',
      '{"pid":-1,"host":"x","startedAt":"y"}',
    ]) {
      expect(readLockStatus(lockWith(content)).state).toBe("unknown");
    }
  });

  it("creates exclusively and removes only an unchanged stale lock", () => {
    const path = join(dir, "excl.lock");
    expect(createLockFile(path, describeThisProcess())).toBe(true);
    expect(createLockFile(path, describeThisProcess())).toBe(false);
    const live = readFileSync(path, "utf8");
    expect(removeStaleLock(path, live).removed).toBe(false);
    const stale = JSON.stringify({ pid: process.pid, host: hostname(), startedAt: "2000-01-01T00:00:00.000Z" });
    writeFileSync(path, stale);
    expect(removeStaleLock(path, "something else").removed).toBe(false);
    expect(removeStaleLock(path, stale).removed).toBe(true);
  });
});
