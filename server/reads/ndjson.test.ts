import { describe, expect, it, vi } from "vitest";

// The source is not what is tested here: any request resolves to an empty context.
vi.mock("@/server/source/edge", () => ({ routeSource: () => ({}) }));
const { ndjsonRead } = await import("./ndjson");

/** `n` documents made at once, as the chat list's rows come from the index. */
async function* ready(n: number): AsyncGenerator<{ i: number }> {
  for (let i = 0; i < n; i++) yield { i };
}

describe("ndjsonRead: a streamed read as NDJSON", () => {
  it("lets other work run between documents when the client takes them as fast as they are made", async () => {
    const response = ndjsonRead(new Request("http://x/api/chats"), () => ready(50), { unexpected: "x", what: "x" });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let lines = 0;
    // Another request's turn, due as soon as this one lets the event loop go round.
    let readWhenOtherRan: number | null = null;
    setImmediate(() => {
      readWhenOtherRan = lines;
    });
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      lines += value.split("\n").length - 1;
    }
    expect(lines).toBe(50);
    // Without a turn between documents all 50 went out in one run of promise callbacks, before the other.
    expect(readWhenOtherRan).not.toBeNull();
    expect(readWhenOtherRan).toBeLessThan(50);
  });

  it("ends the generator when the client goes away", async () => {
    let ended = false;
    async function* endless() {
      try {
        for (let i = 0; ; i++) yield { i };
      } finally {
        ended = true;
      }
    }
    const response = ndjsonRead(new Request("http://x/api/chats"), () => endless(), { unexpected: "x", what: "x" });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(ended).toBe(true);
  });

  it("aborts the read's signal when the client goes away while the generator waits inside (issue 28)", async () => {
    let left: AbortSignal | null = null;
    async function* waiting(signal: AbortSignal) {
      left = signal;
      yield { i: 0 };
      // Waits for what only the signal can stop (the chat list's folder check).
      await new Promise((stop) => signal.addEventListener("abort", stop));
    }
    const response = ndjsonRead(new Request("http://x/api/chats"), (_ctx, signal) => waiting(signal), {
      unexpected: "x",
      what: "x",
    });
    const reader = response.body!.getReader();
    await reader.read();
    const pending = reader.read();
    pending.catch(() => {});
    await new Promise((r) => setImmediate(r));
    expect(left!.aborted).toBe(false);
    await reader.cancel();
    expect(left!.aborted).toBe(true);
  });
});
