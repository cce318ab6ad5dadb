import { unlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createChat, leaveDeadLock, settleFolder } from "../../test-support/chats/testing";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import type { ChatSort } from "../chats/views";
import { handleOf, refreshIndex } from ".";
import { FACTS_ROWS_A_LOOK, readChatFacts } from "./chat-facts";
import { readMeta, writeMeta } from "./db";
import { orderedChats } from "./list-order";

/**
 * Every chat's facts for the chat list's filtered windows (`chat-facts.ts`), read in slices with turns of the
 * event loop between them (issue 28): the same facts in the order's places whatever the slices, one snapshot
 * while the index's own connection goes on between them, and a read nobody waits for any more stops.
 */

const roots = tempIndexRoots("oda-chat-facts-");

const COPIES = 600;

/**
 * An index of six real chats, one with a lock its holder left that is gone since the refresh (judged now: no
 * lock), and each chat copied `COPIES` times under other ids: a few thousand rows.
 */
async function indexed() {
  const { logs, state } = roots();
  for (let i = 0; i < 5; i++) {
    const w = createChat(
      logs,
      { id: `c-${i}`, cwd: i % 2 ? "/srv/a" : null, created: `2026-11-2${i}T09:00:00.000Z` },
      { compress: true },
    );
    await w.appendTurn({ user: `Question ${i}`, assistant: "Answer", ts: `2026-11-2${i}T09:01:00.000Z` });
    await w.close();
  }
  const locked = createChat(logs, { id: "c-locked", cwd: "/srv/b", created: "2026-11-26T09:00:00.000Z" });
  await locked.appendTurn({ user: "Held", assistant: "Answer", ts: "2026-11-26T09:01:00.000Z" });
  await locked.close();
  leaveDeadLock(locked.dir);
  settleFolder(logs);
  await refreshIndex(state, logs, { compress: true });
  unlinkSync(join(locked.dir, "session.lock"));
  const handle = handleOf(state, logs);
  handle.db
    .prepare(
      `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ?)
       INSERT INTO chats (id, folder, cwd, title, first_activity, last_activity, messages, problems, source,
         fingerprint, format, summary, indexed_at)
       SELECT id || '-' || k, folder, cwd, title, first_activity, last_activity, messages + k % 7, problems, source,
         fingerprint, format, summary, indexed_at FROM chats, n`,
    )
    .run(COPIES);
  const total = (handle.db.prepare("SELECT count(*) FROM chats").pluck().get() as number) ?? 0;
  return { handle, total };
}

const turn = () => new Promise<void>((next) => setImmediate(next));

/** Counts the turns of the event loop until `stop` is called. */
function countTurns(onTurn: (n: number) => void = () => {}) {
  let turns = 0;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    turns++;
    onTurn(turns);
    setImmediate(next);
  };
  setImmediate(next);
  return {
    stop: () => {
      stopped = true;
      return turns;
    },
  };
}

const ORDERS: ChatSort[] = [
  { key: "title", dir: "asc" },
  { key: "lastActivity", dir: "desc" },
  { key: "messages", dir: "asc" },
  { key: "lock", dir: "desc" },
];

describe("every chat's facts, read in slices", () => {
  it("reads every chat once, in its order's place, its lock judged now, the same in one slice or many", async () => {
    const { handle, total } = await indexed();
    expect(total).toBe(6 * (COPIES + 1));
    const lockedAtRefresh = handle.db
      .prepare("SELECT count(*) FROM chats WHERE json_extract(ltrim(summary, '~'), '$.lock.state') IS NOT NULL")
      .pluck()
      .get();
    expect(lockedAtRefresh).toBe(COPIES + 1);
    for (const order of ORDERS) {
      const many = await readChatFacts(handle, order, { sliceMs: 0 });
      const one = await readChatFacts(handle, order, { sliceMs: Number.POSITIVE_INFINITY });
      expect(many).toEqual(one);
      expect(many.refreshedAt).toBe(readMeta(handle.db, "refreshedAt"));
      expect(many.facts.map((f) => f.cid)).toEqual(orderedChats(handle.db, order, null, total).map((c) => c.cid));
      // The lock recorded at the refresh is gone: each of its chats is judged again, with no lock.
      expect(many.facts.filter((f) => f.lock.state !== "none")).toEqual([]);
      expect(many.facts.filter((f) => f.cwd === "/srv/b")).toHaveLength(COPIES + 1);
    }
  });

  it("gives the event loop a turn while it reads, a callback asked for before it runs before the read ends", async () => {
    const { handle, total } = await indexed();
    let ranFirst = false;
    setImmediate(() => {
      ranFirst = true;
    });
    // Looked at as the read ends: the callback ran meanwhile.
    expect(await readChatFacts(handle, { key: "title", dir: "asc" }).then(() => ranFirst)).toBe(true);

    // Every few rows once the slice is spent (0 ms here, so at each look at the clock).
    const turns = countTurns();
    const sliced = await readChatFacts(handle, { key: "title", dir: "asc" }, { sliceMs: 0 });
    expect(sliced.facts).toHaveLength(total);
    expect(turns.stop()).toBeGreaterThanOrEqual(Math.floor(total / FACTS_ROWS_A_LOOK));
  });

  it("reads one snapshot while the index's own connection reads and writes between its slices", async () => {
    const { handle, total } = await indexed();
    const before = readMeta(handle.db, "refreshedAt");
    let wrote = false;
    const turns = countTurns((n) => {
      if (n !== 2) return;
      // Another request's statements on the shared connection, then a refresh's commit: none waits for the read.
      expect(handle.db.prepare("SELECT count(*) FROM chats").pluck().get()).toBe(total);
      handle.db.prepare("DELETE FROM chats WHERE id LIKE 'c-1-%'").run();
      writeMeta(handle.db, "refreshedAt", "2099-01-01T00:00:00.000Z");
      wrote = true;
    });
    const read = await readChatFacts(handle, { key: "folder", dir: "asc" }, { sliceMs: 0 });
    turns.stop();
    expect(wrote).toBe(true);
    expect(read.facts).toHaveLength(total);
    expect(read.refreshedAt).toBe(before);
    // A read started after the commit sees it.
    const after = await readChatFacts(handle, { key: "folder", dir: "asc" });
    expect(after.facts).toHaveLength(total - COPIES);
    expect(after.refreshedAt).toBe("2099-01-01T00:00:00.000Z");
  });

  it("stops at its next turn once nobody waits for it, its connection closed", async () => {
    const { handle, total } = await indexed();
    const left = new AbortController();
    const turns = countTurns((n) => {
      if (n === 1) left.abort();
    });
    await expect(
      readChatFacts(handle, { key: "title", dir: "asc" }, { signal: left.signal, sliceMs: 0 }),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(turns.stop()).toBeLessThan(Math.floor(total / FACTS_ROWS_A_LOOK) / 2);
    await turn();
    // Nothing of the read holds the file: the index's own connection writes with no wait.
    handle.db.pragma("busy_timeout = 0");
    handle.db.prepare("DELETE FROM chats WHERE id LIKE 'c-2-%'").run();
    expect(handle.db.pragma("wal_checkpoint(TRUNCATE)")).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
  });
});
