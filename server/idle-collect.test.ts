import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startIdleCollect } from "./idle-collect";

/** A clock of CPU time the test moves: `spend(ms)` is work done by the process. */
function cpuClock() {
  let micros = 0;
  return { cpuMicros: () => micros, spend: (ms: number) => (micros += ms * 1000) };
}

describe("startIdleCollect", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("collects once after three quiet looks following work, and not again until there is work", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const clock = cpuClock();
    const gc = vi.fn();
    const stop = startIdleCollect(gc, { everyMs: 2000, cpuMicros: clock.cpuMicros });
    // Busy looks: 500 ms of CPU each 2 s.
    for (let i = 0; i < 3; i++) {
      clock.spend(500);
      vi.advanceTimersByTime(2000);
    }
    expect(gc).not.toHaveBeenCalled();
    // Two quiet looks are not enough (99 ms of 2 s is under the 5%), the third one collects.
    clock.spend(99);
    vi.advanceTimersByTime(4000);
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2000);
    expect(gc).toHaveBeenCalledTimes(1);
    // Still idle: no second collection.
    vi.advanceTimersByTime(60_000);
    expect(gc).toHaveBeenCalledTimes(1);
    // Work, then quiet again: one more.
    clock.spend(101);
    vi.advanceTimersByTime(2000);
    vi.advanceTimersByTime(6000);
    expect(gc).toHaveBeenCalledTimes(2);
    stop?.();
    clock.spend(1000);
    vi.advanceTimersByTime(20_000);
    expect(gc).toHaveBeenCalledTimes(2);
  });

  it("does not count the collection's own time as work (which would collect every few seconds)", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const clock = cpuClock();
    // A collection of 300 ms of CPU: more than 5% of a look.
    const gc = vi.fn(() => clock.spend(300));
    startIdleCollect(gc, { everyMs: 2000, cpuMicros: clock.cpuMicros });
    vi.advanceTimersByTime(6000);
    expect(gc).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it("does nothing without V8's collector", () => {
    expect(startIdleCollect(undefined)).toBeNull();
  });

  it("gives an idle process's heap back, in a real process with --expose-gc", async () => {
    const module = pathToFileURL(join(import.meta.dirname, "idle-collect.ts")).href;
    // 100 MB of garbage made, then the process idle: the heap must shrink by the collector alone.
    const code = `const { startIdleCollect } = await import(${JSON.stringify(module)});
      let junk = [];
      for (let r = 0; r < 20; r++) junk = Array.from({ length: 200000 }, (_, i) => ({ i, s: "y" + i + r, a: [i] }));
      junk = null;
      const before = process.memoryUsage().heapTotal;
      let collected = 0;
      startIdleCollect(() => { collected++; globalThis.gc(); }, { everyMs: 200 });
      const wait = setInterval(() => {
        if (!collected) return;
        clearInterval(wait);
        process.stdout.write(JSON.stringify({ before, after: process.memoryUsage().heapTotal }));
      }, 50);`;
    const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", code], {
      cwd: join(import.meta.dirname, ".."),
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    await new Promise((done) => child.on("close", done));
    expect(err).toBe("");
    const { before, after } = JSON.parse(out) as { before: number; after: number };
    expect(before - after).toBeGreaterThan(40 * 2 ** 20);
  }, 60_000);
});
