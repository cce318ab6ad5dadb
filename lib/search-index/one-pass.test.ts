import { rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createChat } from "../../test-support/chats/testing";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { handleOf, listChatsFromIndex, refreshIndex, searchChats } from ".";

// Every decode of a log, counted by path: the real decoder runs, the wrapper only counts.
const decodes = vi.hoisted(() => new Map<string, number>());
vi.mock("../chats/log-stream", async (original) => {
  const real = await original<typeof import("../chats/log-stream")>();
  return {
    ...real,
    streamLog: (path: string, options: Parameters<typeof real.streamLog>[1]) => {
      decodes.set(path, (decodes.get(path) ?? 0) + 1);
      return real.streamLog(path, options);
    },
  };
});

// Every directory read and every stat by path, counted the same way.
const listings = vi.hoisted(() => new Map<string, number>());
const stats = vi.hoisted(() => new Map<string, number>());
vi.mock("node:fs", async (original) => {
  const real = await original<typeof import("node:fs")>();
  const readdirSync = ((path: string, ...rest: unknown[]) => {
    listings.set(String(path), (listings.get(String(path)) ?? 0) + 1);
    return (real.readdirSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof real.readdirSync;
  const statSync = ((path: string, ...rest: unknown[]) => {
    stats.set(String(path), (stats.get(String(path)) ?? 0) + 1);
    return (real.statSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof real.statSync;
  return { ...real, readdirSync, statSync, default: { ...real, readdirSync, statSync } };
});

const roots = tempIndexRoots("oda-index-one-pass-");

/** A chat of three turns, saved as a writer does; without its checkpoint unless `keep`. */
async function chat(logs: string, keep: boolean): Promise<string> {
  const w = createChat(logs, { id: "bare", cwd: "/srv/a", created: "2026-11-20T09:00:00.000Z" });
  for (let t = 0; t < 3; t++)
    await w.appendTurn({ user: `zebra ${t}`, assistant: `answer ${t} 🎉`, ts: `2026-11-20T09:0${t}:00.000Z` });
  await w.close();
  if (!keep) rmSync(join(w.dir, "session.cache.json"));
  return w.logPath;
}

/** A chat of `turns` turns in one save (quick to make), without its checkpoint. */
async function longChat(logs: string, turns: number): Promise<string> {
  const w = createChat(logs, { id: "long", cwd: "/srv/a", created: "2026-11-20T09:00:00.000Z" });
  const lines = Array.from({ length: turns }, (_, t) => [
    { type: "message", ts: "2026-11-20T09:01:00.000Z", role: "user", content: [{ type: "text", text: `budget ${t}` }] },
    { type: "message", ts: "2026-11-20T09:01:01.000Z", role: "assistant", content: `answer ${t} 🎉` },
    { type: "turn_end", ts: "2026-11-20T09:01:02.000Z" },
  ]).flat();
  await w.writeSave(await w.encodeSave(lines.map((l) => JSON.stringify(l))), null);
  await w.close();
  rmSync(join(w.dir, "session.cache.json"));
  return w.logPath;
}

/** What the index holds of a chat's entries: line, role, time and text of each, in order. */
function entries(state: string, logs: string) {
  return handleOf(state, logs)
    .db.prepare("SELECT c.id, l.line, l.role, l.ts FROM lines l JOIN chats c ON c.cid = l.id >> 24 ORDER BY c.id, l.id")
    .raw()
    .all();
}

const strip = (r: Awaited<ReturnType<typeof searchChats>>) => ({ ...r, ms: 0 });

describe("a log without a checkpoint", () => {
  it("is decoded once to describe the chat and index its text, with the index a checkpoint gives", async () => {
    const { logs, state } = roots();
    const bare = await chat(logs, false);
    // Past one batch (5,000 entries): its text is read again once the chat is described, and indexed whole.
    const long = await longChat(logs, 2600);
    const withCheckpoint = roots();
    const kept = await chat(withCheckpoint.logs, true);
    await longChat(withCheckpoint.logs, 2600);
    decodes.clear();
    listings.clear();
    const result = await refreshIndex(state, logs, { threads: 0 });
    expect(result).toMatchObject({ added: 2, reindexed: 2 });
    expect(decodes.get(bare)).toBe(1);
    // Its folder is read once too: the listing its fingerprint is taken from is the one its summary uses.
    expect(listings.get(dirname(bare))).toBe(1);
    expect(decodes.get(long)).toBe(2);
    // The same entries, text and row as where a checkpoint described the chat and its log was read for its text.
    await refreshIndex(withCheckpoint.state, withCheckpoint.logs, { threads: 0 });
    expect(decodes.get(kept)).toBe(1);
    expect(entries(state, logs)).toEqual(entries(withCheckpoint.state, withCheckpoint.logs));
    for (const query of ["zebra", "🎉", '"answer 2"'])
      expect(strip(await searchChats(state, logs, { query }))).toEqual(
        strip(await searchChats(withCheckpoint.state, withCheckpoint.logs, { query })),
      );
    const row = (await listChatsFromIndex(state, logs)).chats.find((c) => c.id === "bare");
    expect(row).toMatchObject({ id: "bare", messages: 6, cached: false });
    expect(entries(state, logs)).toHaveLength(5206);
  });
});

describe("a new chat's checkpoint", () => {
  it("is stat'ed once, for the fingerprint, and its size kept on the chat's row from that stat", async () => {
    const { logs, state } = roots();
    const log = await chat(logs, true);
    const checkpoint = join(dirname(log), "session.cache.json");
    stats.clear();
    expect(await refreshIndex(state, logs, { threads: 0 })).toMatchObject({ added: 1 });
    expect(stats.get(checkpoint)).toBe(1);
    const row = handleOf(state, logs).db.prepare("SELECT cache_bytes, lock_bytes FROM chats").get();
    expect(row).toEqual({ cache_bytes: statSync(checkpoint).size, lock_bytes: 0 });
  });
});
