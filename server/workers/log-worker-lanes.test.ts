import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The decode worker's lanes and idle end, over a stand-in thread that answers only when told: which thread
 * a job went to, and what happens to a thread with no job left.
 */

type Message = { id: number; fn?: string; next?: true; cancel?: true; flag?: Int32Array };
class FakeWorker extends EventEmitter {
  static made: FakeWorker[] = [];
  messages: Message[] = [];
  ended = false;
  constructor() {
    super();
    FakeWorker.made.push(this);
  }
  postMessage(message: Message) {
    this.messages.push(message);
  }
  /** Answers its latest `fn` job with a value, or an item for a pulled read. */
  answer(fn: string, reply: Record<string, unknown>) {
    const job = this.messages.findLast((m) => m.fn === fn);
    if (!job) throw new Error(`no ${fn} job on this thread`);
    this.emit("message", { id: job.id, ...reply });
  }
  ref() {}
  unref() {}
  terminate() {
    this.ended = true;
    return Promise.resolve(1);
  }
}

/** The thread the latest `fn` job was sent to. */
const threadOf = (fn: string) =>
  FakeWorker.made
    .map((w) => ({ w, id: w.messages.findLast((m) => m.fn === fn)?.id ?? 0 }))
    .sort((a, b) => b.id - a.id)[0]?.w as FakeWorker;

vi.mock("node:worker_threads", () => ({ Worker: FakeWorker }));
vi.mock("@/server/source/registry", () => ({ sources: () => ({ liveRoots: { state: null } }) }));

const { abandonableInWorker, inWorker, pullInWorker, runningLanes, setIdleEnd, warmLane } = await import(
  "./log-worker"
);

beforeEach(() => {
  vi.useFakeTimers();
  setIdleEnd(5_000);
});
// Every test leaves no job: its threads end once idle, so the next test starts with none.
afterEach(async () => {
  await vi.advanceTimersByTimeAsync(120_000);
  expect(runningLanes()).toEqual([]);
  vi.useRealTimers();
});

describe("the decode worker's lanes", () => {
  it("reads the Doctor's logs on a thread of its own, answered while the decode thread is busy", async () => {
    const busy = inWorker("indexFreshness", null, "/logs");
    const steps = pullInWorker("doctorLogs", "/logs", null, {}, null);
    const decode = threadOf("indexFreshness");
    const doctor = threadOf("doctorLogs");
    expect(doctor).not.toBe(decode);
    expect(doctor.messages.map((m) => m.fn)).toEqual(["doctorLogs"]);
    const first = steps.next();
    doctor.answer("doctorLogs", { item: { problems: [], done: 32, total: 100, repairable: null } });
    expect(await first).toEqual({ done: false, value: { problems: [], done: 32, total: 100, repairable: null } });
    steps.cancel();
    expect(doctor.messages.at(-1)).toMatchObject({ cancel: true });
    decode.answer("indexFreshness", { done: true, value: { fresh: true } });
    expect(await busy).toEqual({ fresh: true });
  });

  it("ends a thread that has had no job for the idle time, and serves the next call on a new one", async () => {
    const first = inWorker("indexFreshness", null, "/logs");
    const thread = threadOf("indexFreshness");
    thread.answer("indexFreshness", { done: true, value: 1 });
    expect(await first).toBe(1);
    expect(runningLanes()).toContain("decode");
    // A job that comes within the idle time keeps the thread.
    await vi.advanceTimersByTimeAsync(4_000);
    const second = inWorker("indexFreshness", null, "/logs");
    expect(threadOf("indexFreshness")).toBe(thread);
    thread.answer("indexFreshness", { done: true, value: 2 });
    expect(await second).toBe(2);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(thread.ended).toBe(true);
    expect(runningLanes()).not.toContain("decode");
    // The next request starts a thread again and is served; the old thread's exit fails none of its jobs.
    const third = inWorker("indexFreshness", null, "/logs");
    const again = threadOf("indexFreshness");
    expect(again).not.toBe(thread);
    thread.emit("exit", 1);
    again.answer("indexFreshness", { done: true, value: 3 });
    expect(await third).toBe(3);
  });

  it("a warmed lane's thread takes the first job, and ends when idle if none comes", async () => {
    warmLane("doctor");
    const warmed = FakeWorker.made.at(-1) as FakeWorker;
    expect(runningLanes()).toContain("doctor");
    const steps = pullInWorker("doctorLogs", "/logs", null, {}, null);
    expect(threadOf("doctorLogs")).toBe(warmed);
    steps.cancel();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(warmed.ended).toBe(true);
    warmLane("doctor");
    const unused = FakeWorker.made.at(-1) as FakeWorker;
    expect(unused).not.toBe(warmed);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(unused.ended).toBe(true);
    expect(runningLanes()).not.toContain("doctor");
  });

  it("ends the thread after the idle time after a read of a chat's lines too (its line index is remembered)", async () => {
    const lines = inWorker("readLines", "/logs", "c-1", { compress: true } as never);
    const thread = threadOf("readLines");
    thread.answer("readLines", { done: true, value: [] });
    await lines;
    await vi.advanceTimersByTimeAsync(4_000);
    expect(thread.ended).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(thread.ended).toBe(true);
  });

  it("sets an abandoned folder check's shared flag when its signal aborts, and the thread's error ends it", async () => {
    const left = new AbortController();
    const check = abandonableInWorker(left.signal, "indexFreshness", null, "/logs");
    const thread = threadOf("indexFreshness");
    const flag = thread.messages.at(-1)?.flag as Int32Array;
    expect(flag.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Atomics.load(flag, 0)).toBe(0);
    left.abort();
    // The thread's walk looks at this memory (`cancelled`), where no message could reach it.
    expect(Atomics.load(flag, 0)).toBe(1);
    thread.answer("indexFreshness", { error: { name: "AbortError", message: "stopped" } });
    await expect(check).rejects.toThrow("stopped");
  });
});
