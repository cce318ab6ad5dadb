import { appendFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { MessageChannel } from "node:worker_threads";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createChat, openChat, settleFolder } from "../../test-support/chats/testing";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { listAllChats } from "../chats";
import { DEFAULT_LOG_LIMITS, logLimits } from "../chats/limits";
import { handleOf, listChatsFromIndex, refreshIndex, searchChats } from ".";
import { readerResourceLimits, serveReads } from "./read-pool";
import { unpackMessage } from "./read-wire";
import { scanChanges } from "./scan";

const roots = tempIndexRoots("oda-index-threads-");

/** A folder of varied chats: formats 4 and 1, a tool call, a line that is not JSON, a checkpoint, an older generation. */
async function variedFolder(logs: string): Promise<void> {
  for (let i = 0; i < 6; i++) {
    const w = createChat(logs, { id: `c-${i}`, cwd: i % 2 ? "/srv/a" : null, created: "2026-11-20T09:00:00.000Z" });
    await w.appendTurn({
      user: `budget question ${i}`,
      assistant: `answer ${i} 🎉`,
      ts: `2026-11-2${i}T09:01:00.000Z`,
    });
    await w.appendEvents([
      {
        type: "message",
        ts: `2026-11-2${i}T09:02:00.000Z`,
        role: "assistant",
        content: [{ type: "tool_use", name: "grep", input: { pattern: `needle${i}` } }],
      },
    ]);
    if (i === 3) appendFileSync(w.logPath, "not json at all\n");
    await w.close();
  }
  const old = createChat(logs, { id: "c-old", cwd: "/srv/b", created: "2026-10-01T09:00:00.000Z" }, { format: 1 });
  await old.appendTurn({ user: "format one budget", assistant: "noted", ts: "2026-10-01T09:01:00.000Z" });
  await old.close();
  // Written long before the refreshes: no chat is racy, so a refresh reads again only what changed.
  settleFolder(logs);
}

const strip = (r: Awaited<ReturnType<typeof searchChats>>) => ({ ...r, ms: 0 });

describe("reading chats on reader threads", () => {
  it("builds the very index the refresh's own thread builds, and grows it the same way", async () => {
    // Chats are numbered as their first batch is written, so each has a time of its own to order by.
    const { logs, state } = roots();
    const other = roots();
    await variedFolder(logs);
    const onThreads = await refreshIndex(state, logs, { threads: 2 });
    const here = await refreshIndex(other.state, logs, { threads: 0 });
    expect(onThreads.threads).toBe(2);
    expect(here.threads).toBe(0);
    expect({ ...onThreads, ms: 0, threads: 0 }).toEqual({ ...here, ms: 0, threads: 0, setAside: null });
    for (const query of ["budget", "needle3", '"not json"', "🎉"]) {
      expect(strip(await searchChats(state, logs, { query }))).toEqual(
        strip(await searchChats(other.state, logs, { query })),
      );
    }
    // By chat id: the chats' numbers (and so the entries' rowids) follow the order their reads ended in.
    const dump = (s: string) =>
      handleOf(s, logs)
        .db.prepare(
          "SELECT c.id, l.line, l.role, l.ts FROM lines l JOIN chats c ON c.cid = l.id >> 24 ORDER BY c.id, l.id",
        )
        .raw()
        .all();
    expect(dump(state)).toEqual(dump(other.state));

    const w = await openChat(logs, "c-2");
    await w.appendTurn({ user: "later zanzibar", assistant: "ok", ts: "2026-11-29T09:00:00.000Z" });
    w.releaseLock();
    settleFolder(w.dir);
    const grown = await refreshIndex(state, logs, { threads: 2 });
    expect(grown).toMatchObject({ changed: 1, appended: 1, threads: 1 });
    expect((await searchChats(state, logs, { query: "zanzibar" })).groups.map((g) => g.id)).toEqual(["c-2"]);
  });

  it("lists every summary as the folder listing gives it, each kept in a fraction of its JSON", async () => {
    const { logs, state } = roots();
    await variedFolder(logs);
    writeFileSync(join(logs, "_no-cwd", "c-0", "session.lock"), '{"pid": 999999999, "host": "elsewhere"}\n');
    await refreshIndex(state, logs, { threads: 1 });
    const listed = (await listChatsFromIndex(state, logs)).chats;
    const direct = (await listAllChats(logs)).chats;
    const byId = new Map(listed.map((c) => [c.id, c]));
    expect(listed).toHaveLength(direct.length);
    // Key order too: the JSON the list serves is the same text.
    for (const chat of direct) expect(JSON.stringify(byId.get(chat.id))).toBe(JSON.stringify(chat));
    const db = new Database(join(state, "index.sqlite"), { readonly: true });
    const stored = db.prepare("SELECT id, summary FROM chats").raw().all() as [string, string][];
    db.close();
    const kept = stored.reduce((n, [, summary]) => n + summary.length, 0);
    const whole = stored.reduce((n, [id]) => n + JSON.stringify(byId.get(id)).length, 0);
    expect(kept).toBeLessThan(whole / 2);
  });

  it("reads a large refresh on one reader thread per core (the writer waits on them more than it works)", async () => {
    const { logs, state } = roots();
    for (let i = 0; i < 200; i++) {
      const w = createChat(logs, { id: `c-${i}`, cwd: null, created: "2026-11-20T09:00:00.000Z" });
      const line = { type: "message", ts: "2026-11-20T09:01:00.000Z", role: "user", content: `budget ${i}` };
      await w.writeSave(await w.encodeSave([JSON.stringify(line)]), null);
      await w.close();
    }
    const result = await refreshIndex(state, logs);
    expect(result).toMatchObject({ added: 200, threads: Math.min(3, availableParallelism()) });
    expect((await searchChats(state, logs, { query: "budget" })).totalHits).toBe(200);
  });

  it("hands over at most four batches the writer has not applied", async () => {
    const { logs } = roots();
    const w = createChat(logs, { id: "c-long", cwd: null, created: "2026-11-20T09:00:00.000Z" });
    const lines = Array.from({ length: 30_000 }, (_, i) =>
      JSON.stringify({ type: "message", ts: "2026-11-20T09:00:00.000Z", role: "user", content: `entry ${i}` }),
    );
    await w.writeSave(await w.encodeSave(lines), null);
    await w.close();
    const changed = (await scanChanges(handleOf(roots().state, logs).db, logs)).changed.at(0);
    const { port1, port2 } = new MessageChannel();
    serveReads(port1, { limits: logLimits(), dictionary: null });
    let batches = 0;
    let entries = 0;
    let acked = 0;
    let most = 0;
    const ended = new Promise<void>((done) => {
      // A reader's messages of one turn come in one array, each batch packed (`read-wire.ts`).
      port2.on("message", (messages: { m?: Uint8Array; end?: true }[]) => {
        for (const m of messages) {
          if (m.end) return done();
          batches++;
          const message = unpackMessage(m.m as Uint8Array);
          if (message.kind === "batch") entries += message.texts.length;
          most = Math.max(most, batches - acked);
        }
        // The writer falls behind: it applies one batch only once four wait.
        if (batches - acked >= 4) {
          acked++;
          port2.postMessage({ ack: 1 });
        }
      });
    });
    port2.postMessage({ tasks: [{ i: 0, task: { seen: changed?.seen, row: null, compress: true, logDir: logs } }] });
    await ended;
    // 30,000 entries in batches of 5,000 or a little more, then the last one with the chat's final state.
    expect(entries).toBe(30_000);
    expect(batches).toBeGreaterThanOrEqual(6);
    expect(most).toBe(4);
    port1.close();
    port2.close();
  });

  it("posts what one turn of its event loop made as one message: a chat's last batch and its end together", async () => {
    const { logs } = roots();
    for (let i = 0; i < 3; i++) {
      const w = createChat(logs, { id: `c-${i}`, cwd: null, created: "2026-11-20T09:00:00.000Z" });
      const line = { type: "message", ts: "2026-11-20T09:01:00.000Z", role: "user", content: `budget ${i}` };
      await w.writeSave(await w.encodeSave([JSON.stringify(line)]), null);
      await w.close();
    }
    const changes = await scanChanges(handleOf(roots().state, logs).db, logs);
    const { port1, port2 } = new MessageChannel();
    serveReads(port1, { limits: logLimits(), dictionary: null });
    let posts = 0;
    let messages = 0;
    let ends = 0;
    const ended = new Promise<void>((done) => {
      port2.on("message", (got: { m?: Uint8Array; end?: true }[]) => {
        posts++;
        messages += got.length;
        const acks = got.filter((m) => m.m).length;
        if (acks) port2.postMessage({ ack: acks });
        ends += got.filter((m) => m.end).length;
        if (ends === 3) done();
      });
    });
    const tasks = [0, 1, 2].map((i) => ({
      i,
      task: { seen: changes.changed.at(i).seen, row: null, compress: true, logDir: logs },
    }));
    port2.postMessage({ tasks });
    await ended;
    // Three chats: a batch and an end each, in at most three messages (one a chat), not six.
    expect(messages).toBe(6);
    expect(posts).toBeLessThanOrEqual(3);
    port1.close();
    port2.close();
  });
});

describe("a reader thread's heap bounds", () => {
  const MiB = 1024 ** 2;
  it("bounds the young generation, and the old one with room for its chats' longest lines", () => {
    const bounds = readerResourceLimits(DEFAULT_LOG_LIMITS);
    expect(bounds.maxYoungGenerationSizeMb).toBe(4);
    // Three chats of 15.5 MiB lines held 207 MiB live in one reader; V8's own default is 4 GiB.
    expect(bounds.maxOldGenerationSizeMb).toBeGreaterThanOrEqual(2 * 207);
    expect(bounds.maxOldGenerationSizeMb).toBeLessThanOrEqual(1024);
  });

  it("follows the line limit the admin set, and sets no old bound past V8's own", () => {
    const small = readerResourceLimits({ ...DEFAULT_LOG_LIMITS, maxLineBytes: 64 * 1024 });
    const large = readerResourceLimits({ ...DEFAULT_LOG_LIMITS, maxLineBytes: 64 * MiB });
    expect(small.maxOldGenerationSizeMb).toBeLessThan(200);
    expect(large.maxOldGenerationSizeMb).toBeGreaterThanOrEqual(3 * 4.5 * 64);
    const huge = readerResourceLimits({ ...DEFAULT_LOG_LIMITS, maxLineBytes: 1024 * MiB });
    expect(huge.maxOldGenerationSizeMb).toBeUndefined();
    expect(huge.maxYoungGenerationSizeMb).toBe(4);
  });
});
