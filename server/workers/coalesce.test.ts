import { describe, expect, it } from "vitest";
import { coalesced, shared } from "./coalesce";

/** A read that ends when told, recording each start. */
function reads() {
  const started: { arg: string; signal: AbortSignal; end: (v: number) => void; fail: (e: Error) => void }[] = [];
  const run = (signal: AbortSignal, arg: string) =>
    new Promise<number>((end, fail) => {
      started.push({ arg, signal, end, fail });
    });
  return { started, run };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("coalesced", () => {
  it("starts a read for a call while none runs, and another for a call after it ended", async () => {
    const { started, run } = reads();
    const check = coalesced((arg: string) => arg, run);
    const first = check(null, "a");
    expect(started).toHaveLength(1);
    started[0]?.end(1);
    expect(await first).toBe(1);
    const second = check(null, "a");
    expect(started).toHaveLength(2);
    started[1]?.end(2);
    expect(await second).toBe(2);
  });

  it("gives calls made while a read runs one more read, started when it ends", async () => {
    const { started, run } = reads();
    const check = coalesced((arg: string) => arg, run);
    const first = check(null, "a");
    const second = check(null, "a");
    const third = check(null, "a");
    expect(started).toHaveLength(1);
    started[0]?.end(1);
    expect(await first).toBe(1);
    await tick();
    expect(started).toHaveLength(2);
    started[1]?.end(2);
    expect(await second).toBe(2);
    expect(await third).toBe(2);
  });

  it("keeps keys apart", () => {
    const { started, run } = reads();
    const check = coalesced((arg: string) => arg, run);
    void check(null, "a");
    void check(null, "b");
    expect(started.map((s) => s.arg)).toEqual(["a", "b"]);
  });

  it("starts the next read after a failed one, and a failure reaches only its own callers", async () => {
    const { started, run } = reads();
    const check = coalesced((arg: string) => arg, run);
    const first = check(null, "a");
    const second = check(null, "a");
    started[0]?.fail(new Error("walk failed"));
    await expect(first).rejects.toThrow("walk failed");
    await tick();
    expect(started).toHaveLength(2);
    started[1]?.end(3);
    expect(await second).toBe(3);
    const third = check(null, "a");
    expect(started).toHaveLength(3);
    started[2]?.end(4);
    expect(await third).toBe(4);
  });
});

describe("coalesced reads nobody waits for (issue 28)", () => {
  it("aborts a running read when its caller leaves, and not while another caller of a read still waits", async () => {
    const { started, run } = reads();
    const check = coalesced((arg: string) => arg, run);
    const list = new AbortController();
    const first = check(list.signal, "a");
    first.catch(() => {});
    // Two callers share the next read: one leaves, the other still waits, so it runs on.
    const page = new AbortController();
    const status = new AbortController();
    const second = check(page.signal, "a");
    const third = check(status.signal, "a");
    list.abort();
    expect(started[0]?.signal.aborted).toBe(true);
    started[0]?.fail(new Error("stopped"));
    await expect(first).rejects.toThrow("stopped");
    await tick();
    expect(started).toHaveLength(2);
    page.abort();
    expect(started[1]?.signal.aborted).toBe(false);
    started[1]?.end(2);
    expect(await third).toBe(2);
    expect(await second).toBe(2);
    // A caller that leaves after its read ended aborts nothing.
    status.abort();
    expect(started[1]?.signal.aborted).toBe(false);
  });

  it("never starts a waiting read whose callers all left, and a later call gets a read of its own", async () => {
    const { started, run } = reads();
    const check = coalesced((arg: string) => arg, run);
    const first = check(null, "a");
    const gone = new AbortController();
    const left = check(gone.signal, "a");
    left.catch(() => {});
    gone.abort();
    const later = check(null, "a");
    started[0]?.end(1);
    expect(await first).toBe(1);
    await expect(left).rejects.toMatchObject({ name: "AbortError" });
    await tick();
    // One more read, for the later call only: the abandoned one was dropped, not started.
    expect(started).toHaveLength(2);
    started[1]?.end(2);
    expect(await later).toBe(2);
    await tick();
    expect(started).toHaveLength(2);
  });

  it("a caller without a signal never leaves: its read is never aborted", async () => {
    const { started, run } = reads();
    const check = coalesced((arg: string) => arg, run);
    const first = check(null, "a");
    const gone = new AbortController();
    const second = check(gone.signal, "a");
    const home = check(null, "a");
    gone.abort();
    started[0]?.end(1);
    expect(await first).toBe(1);
    await tick();
    expect(started).toHaveLength(2);
    expect(started[1]?.signal.aborted).toBe(false);
    started[1]?.end(2);
    expect(await home).toBe(2);
    expect(await second).toBe(2);
  });

  it("refuses a call whose signal already aborted, starting nothing", async () => {
    const { started, run } = reads();
    const check = coalesced((arg: string) => arg, run);
    const gone = new AbortController();
    gone.abort();
    await expect(check(gone.signal, "a")).rejects.toMatchObject({ name: "AbortError" });
    expect(started).toHaveLength(0);
  });
});

describe("shared", () => {
  it("gives calls made while a read runs that read's answer, and starts another for a call after it ended", async () => {
    const { started, run } = reads();
    const facts = shared((arg: string) => arg, run);
    const first = facts(null, "a");
    const second = facts(new AbortController().signal, "a");
    const other = facts(null, "b");
    expect(started.map((s) => s.arg)).toEqual(["a", "b"]);
    started[0]?.end(1);
    started[1]?.end(9);
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    expect(await other).toBe(9);
    const later = facts(null, "a");
    expect(started).toHaveLength(3);
    started[2]?.end(2);
    expect(await later).toBe(2);
  });

  it("aborts a read once every caller with a signal has left; a call after that starts another", async () => {
    const { started, run } = reads();
    const facts = shared((arg: string) => arg, run);
    const one = new AbortController();
    const two = new AbortController();
    const first = facts(one.signal, "a");
    const second = facts(two.signal, "a");
    first.catch(() => {});
    second.catch(() => {});
    one.abort();
    expect(started[0]?.signal.aborted).toBe(false);
    two.abort();
    expect(started[0]?.signal.aborted).toBe(true);
    const later = facts(null, "a");
    expect(started).toHaveLength(2);
    started[0]?.fail(new Error("stopped"));
    await expect(first).rejects.toThrow("stopped");
    started[1]?.end(2);
    expect(await later).toBe(2);
    // A caller without a signal never leaves: its read runs on whoever else leaves.
    const home = facts(null, "a");
    const gone = new AbortController();
    const page = facts(gone.signal, "a");
    gone.abort();
    expect(started[2]?.signal.aborted).toBe(false);
    started[2]?.end(3);
    expect(await home).toBe(3);
    expect(await page).toBe(3);
  });

  it("refuses a call whose signal already aborted, starting nothing", async () => {
    const { started, run } = reads();
    const facts = shared((arg: string) => arg, run);
    const gone = new AbortController();
    gone.abort();
    await expect(facts(gone.signal, "a")).rejects.toMatchObject({ name: "AbortError" });
    expect(started).toHaveLength(0);
  });
});
