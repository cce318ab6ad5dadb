import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempFolder } from "../../test-support/test-temp";
import { OdaError } from "../errors";
import { brokenLockSentence, withLockFile } from "./home-lock";
import { describeThisProcess } from "./lock";

// How `withLockFile` waits for a holder (docs/file-contract.md, One writer), without asserting wall-clock
// times: the clock is frozen (only `Date` is faked, timers run) and moved by hand to the deadline, and the
// sleeps between looks are read from the calls home-lock.ts makes to `setTimeout`.

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const busy = () => new OdaError("locked", "busy");
const broken = (problem: string) => new OdaError("refused", problem);
/** A lock naming this process, judged live, that is not a `withLockFile`'s own content (no line end). */
const liveOther = () => JSON.stringify(describeThisProcess());

/** The delays of the sleeps home-lock.ts asks for from now on. */
function recordSleeps(): number[] {
  const delays: number[] = [];
  const real = globalThis.setTimeout;
  vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number) => {
    if (new Error().stack?.includes("/fs/home-lock.ts")) delays.push(ms as number);
    return real(fn, ms);
  }) as typeof setTimeout);
  return delays;
}

/**
 * Resolves once `delays` holds `n` more entries than now (the waiting loop has looked `n` more times).
 * Not `vi.waitFor`: with fake timers it moves the frozen clock on.
 */
async function sleepsMore(delays: number[], n: number): Promise<void> {
  const goal = delays.length + n;
  while (delays.length < goal) await new Promise((r) => setTimeout(r, 5));
}

/** Whether `promise` has settled, after giving it a turn. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setImmediate(r));
  return done;
}

describe("withLockFile's wait for a live holder", () => {
  it("looks again after 2, 4, 8 … ms, doubling up to 100 ms, and refuses exactly at the default 5 s", async () => {
    const path = join(tempFolder("oda-home-lock-wait-"), ".lock");
    writeFileSync(path, liveOther());
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const delays = recordSleeps();
    const run = withLockFile(path, { busy }, async () => "ran");
    run.catch(() => undefined);
    await sleepsMore(delays, 9);
    expect(delays.slice(0, 9)).toEqual([2, 4, 8, 16, 32, 64, 100, 100, 100]);
    vi.setSystemTime(start + 4999);
    await sleepsMore(delays, 2);
    expect(await settled(run)).toBe(false);
    vi.setSystemTime(start + 5000);
    await expect(run).rejects.toThrow(/^busy$/);
    expect(readFileSync(path, "utf8")).toBe(liveOther());
  });

  it("refuses another computer's lock exactly at the deadline, with the sentence naming it", async () => {
    const path = join(tempFolder("oda-home-lock-wait-"), ".lock");
    const content = JSON.stringify({ pid: 42, host: "elsewhere.example", startedAt: "2026-11-29T18:24:08.123Z" });
    writeFileSync(path, content);
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const delays = recordSleeps();
    const run = withLockFile(path, { busy, broken, waitMs: 1000 }, async () => "ran");
    run.catch(() => undefined);
    await sleepsMore(delays, 3);
    vi.setSystemTime(start + 999);
    await sleepsMore(delays, 2);
    expect(await settled(run)).toBe(false);
    vi.setSystemTime(start + 1000);
    await expect(run).rejects.toThrow(
      brokenLockSentence(
        path,
        "the lock of process 42 on another computer (elsewhere.example), which cannot be checked from here",
      ),
    );
    expect(readFileSync(path, "utf8")).toBe(content);
  });
});

describe("withLockFile's queue within one process", () => {
  it("keeps a holder that comes while the second runs behind it, after the first is gone", async () => {
    const path = join(tempFolder("oda-home-lock-wait-"), ".lock");
    const order: string[] = [];
    let third: Promise<void> | undefined;
    const hold = (name: string, during?: () => void) =>
      withLockFile(path, { busy, waitMs: 0 }, async () => {
        order.push(`${name} in`);
        during?.();
        await new Promise((r) => setTimeout(r, 20));
        order.push(`${name} out`);
      });
    await Promise.all([
      hold("a"),
      hold("b", () => {
        third = hold("c");
      }),
    ]);
    await third;
    expect(order).toEqual(["a in", "a out", "b in", "b out", "c in", "c out"]);
  });
});
