import { readFileSync as realRead } from "node:fs";
import { beforeEach, describe, expect, it, vi } from "vitest";

// `/proc/stat` as this test says it is: its boot time moved by a step of the wall clock between two reads.
let btimeShift = 0;
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const readFileSync = ((path: unknown, ...rest: unknown[]) => {
    const text = (fs.readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
    if (path !== "/proc/stat" || typeof text !== "string") return text;
    return text.replace(/^btime (\d+)$/m, (_, s: string) => `btime ${Number(s) + btimeShift}`);
  }) as typeof fs.readFileSync;
  return { ...fs, readFileSync, default: { ...fs, readFileSync } };
});

const { describeThisProcess, judgeHolder, readProcessStartTime } = await import("./lock");

describe("a process's start time after a step of the wall clock", () => {
  beforeEach(() => {
    btimeShift = 0;
  });

  it("is made from the boot time as it is now, not as it was at the first lock", () => {
    expect(realRead("/proc/stat", "utf8")).toMatch(/^btime \d+$/m);
    const before = readProcessStartTime(process.pid)?.getTime() ?? Number.NaN;
    btimeShift = 7;
    const after = readProcessStartTime(process.pid)?.getTime() ?? Number.NaN;
    expect(after - before).toBe(7000);
  });

  it("writes and judges a lock with the boot time of the moment; one from before a step is off by the step", () => {
    btimeShift = 7;
    const holder = describeThisProcess();
    expect(judgeHolder(holder).state).toBe("live");
    btimeShift = 0;
    // Written in the old frame and judged in the new one: the contract's one second is all there is.
    expect(judgeHolder(holder).state).toBe("stale");
  });
});
