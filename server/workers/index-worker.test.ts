import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeHostileLogs } from "@/e2e/hostile-logs";
import { closeAllIndexes, indexStatus, openIndex, searchChats, startIndexRefresh } from "@/lib/search-index";
import { createChat, settleFolder } from "@/test-support/chats/testing";
import { refreshInWorker } from "./index-worker";

let dir: string;
let logs: string;
let state: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "oda-index-worker-"));
  logs = join(dir, "logs");
  state = join(dir, "state");
  mkdirSync(logs);
});
afterEach(() => {
  closeAllIndexes();
  rmSync(dir, { recursive: true, force: true });
});

async function writeChats(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const writer = createChat(logs, { id: `c-${i}`, cwd: "/w", created: "2026-11-29T18:24:08.123Z" });
    await writer.appendTurn({ user: `question ${i} walrus`, assistant: "answer", ts: "2026-11-29T18:25:00.000Z" });
    await writer.close();
  }
  // Written long before the refresh: no chat is racy, so the index built is up to date.
  settleFolder(logs);
}

/** Blocks this thread (no event loop turn) for `ms`. */
function blockFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe("the server's index refresh on a worker thread", () => {
  it("writes the index while this thread's event loop never turns, its readers reading meanwhile", async () => {
    // A bomb folder: gigabytes of zeros and newlines beside ordinary chats.
    await makeHostileLogs(logs, { zeros: "1G", newlines: "512M", longLine: "4M" });
    await writeChats(3);
    const { status, wait } = await startIndexRefresh(state, logs, { compress: true, runner: refreshInWorker });
    expect(status.job.running).toBe(true);
    // Polled synchronously: a refresh in this thread (between event loop turns) would never get on.
    const db = openIndex(state, logs).db;
    const count = () => (db.prepare("SELECT count(*) AS n FROM chats").get() as { n: number }).n;
    for (let polls = 0; count() < 7 && polls < 2400; polls++) blockFor(50);
    expect(count()).toBe(7);
    const result = await wait;
    expect(result).toMatchObject({ chats: 7, added: 7 });
    const after = await indexStatus(state, logs);
    expect(after.job).toMatchObject({ running: false, done: 7, total: 7, error: null });
    expect(after.freshness.fresh).toBe(true);
    expect((await searchChats(state, logs, { query: "walrus" })).groups.map((g) => g.id).sort()).toEqual([
      "c-0",
      "c-1",
      "c-2",
    ]);
  }, 240_000);

  it("reports progress through the job as the worker does chats", async () => {
    await writeChats(12);
    const { wait } = await startIndexRefresh(state, logs, { runner: refreshInWorker });
    await wait;
    // The counts come only from the worker's progress messages.
    const { job } = await indexStatus(state, logs);
    expect(job).toMatchObject({ running: false, done: 12, total: 12, error: null });
    expect(job.result).toMatchObject({ chats: 12, added: 12 });
  }, 120_000);
});
