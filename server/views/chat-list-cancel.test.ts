import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { closeAllIndexes, type Freshness, indexStatus, refreshIndex } from "@/lib/search-index";
import { createChat, settleFolder } from "@/test-support/chats/testing";
import { liveContext } from "../source/context";

/**
 * The chat list's folder check is abandoned with its stream (issue 28): a client that goes away ends the
 * stream, and the check's signal aborts. The check itself is a stand-in that records its signal.
 */

const signals: (AbortSignal | null)[] = [];
vi.mock("@/server/workers/folder-check", () => ({
  // As the worker's check does, it ends with an error once its signal aborts, and never ends otherwise.
  folderCheck: (signal: AbortSignal | null) => {
    signals.push(signal);
    return new Promise<Freshness>((_end, fail) => signal?.addEventListener("abort", () => fail(new Error("stopped"))));
  },
}));
const { streamChatList } = await import("./chat-list");

let root: string;
let logs: string;
let state: string;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "oda-chat-list-cancel-"));
  logs = join(root, "logs");
  state = join(root, "state");
  for (const id of ["c-a", "c-b", "c-c"]) {
    const w = createChat(logs, { id, cwd: "/home/ana/zoo", created: "2026-11-29T18:24:08.123Z" });
    await w.appendTurn({ user: `question of ${id}`, assistant: "answer" });
    await w.close();
  }
  settleFolder(logs);
  await refreshIndex(state, logs, { compress: true });
  signals.length = 0;
});
afterEach(() => {
  closeAllIndexes();
  rmSync(root, { recursive: true, force: true });
});

describe("the chat list's folder check when the client goes away", () => {
  it("aborts the check's signal when the stream is ended before its verdict, and not before", async () => {
    const list = streamChatList(liveContext({ home: null, logs, state, demo: false }), { batch: 2 });
    const first = await list.next();
    expect(first.value?.index).toMatchObject({ checking: true });
    expect(signals).toHaveLength(1);
    const signal = signals[0] as AbortSignal;
    expect(signal.aborted).toBe(false);
    await list.next();
    expect(signal.aborted).toBe(false);
    // The response's stream is cancelled: the generator is returned.
    await list.return(undefined);
    expect(signal.aborted).toBe(true);
  });

  it("aborts the check's signal when the client goes away while the list waits for the verdict", async () => {
    const gone = new AbortController();
    const list = streamChatList(liveContext({ home: null, logs, state, demo: false }), {
      batch: 2,
      gone: gone.signal,
    });
    // Two batches of the index's rows (3 chats, 2 a batch), then the list waits for the check, which never ends.
    await list.next();
    await list.next();
    const waiting = list.next();
    await new Promise((r) => setImmediate(r));
    const signal = signals[0] as AbortSignal;
    expect(signal.aborted).toBe(false);
    // A `return()` now would be queued behind that wait: only the signal from the response reaches the check.
    const logged = vi.spyOn(console, "error");
    gone.abort();
    expect(signal.aborted).toBe(true);
    // The list then ends quietly: no error logged for the stopped check, and no refresh started for nobody.
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(logged).not.toHaveBeenCalled();
    expect((await indexStatus(state, logs)).job.running).toBe(false);
    logged.mockRestore();
  });
});
