import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OdaError } from "../errors";
import { withLockFile } from "./home-lock";
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
