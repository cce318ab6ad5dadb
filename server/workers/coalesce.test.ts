import { describe, expect, it } from "vitest";
import { coalesced } from "./coalesce";

/** A read that ends when told, recording each start. */
function reads() {
  const started: { arg: string; end: (v: number) => void; fail: (e: Error) => void }[] = [];
  const run = (arg: string) =>
    new Promise<number>((end, fail) => {
      started.push({ arg, end, fail });
    });
  return { started, run };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("coalesced", () => {
  it("starts a read for a call while none runs, and another for a call after it ended", async () => {
    const { started, run } = reads();
    const check = coalesced((arg: string) => arg, run);
    const first = check("a");
    expect(started).toHaveLength(1);
    started[0]?.end(1);
    expect(await first).toBe(1);
    const second = check("a");
    expect(started).toHaveLength(2);
    started[1]?.end(2);
    expect(await second).toBe(2);
  });

  it("gives calls made while a read runs one more read, started when it ends", async () => {
    const { started, run } = reads();
    const check = coalesced((arg: string) => arg, run);
    const first = check("a");
    const second = check("a");
    const third = check("a");
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
    void check("a");
    void check("b");
    expect(started.map((s) => s.arg)).toEqual(["a", "b"]);
  });

  it("starts the next read after a failed one, and a failure reaches only its own callers", async () => {
    const { started, run } = reads();
    const check = coalesced((arg: string) => arg, run);
    const first = check("a");
    const second = check("a");
    started[0]?.fail(new Error("walk failed"));
    await expect(first).rejects.toThrow("walk failed");
    await tick();
    expect(started).toHaveLength(2);
    started[1]?.end(3);
    expect(await second).toBe(3);
    const third = check("a");
    expect(started).toHaveLength(3);
    started[2]?.end(4);
    expect(await third).toBe(4);
  });
});
