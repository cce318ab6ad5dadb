import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { createChat, leaveDeadLock } from "../../test-support/chats/testing";
import { listAllChats } from ".";

// summarizeChat's stages (lib/chats/chat.ts) composed into one summary: what each contributes, in order.

const CREATED = "2026-11-29T18:00:00.000Z";

describe("a chat's summary, composed from its stages", () => {
  it("holds the folder's problems, then the checkpoint's, then the log's, with its keys in the summary's order", async () => {
    const dir = tempDir();
    const w = createChat(dir, { id: "c1", cwd: "/home/ana", created: CREATED }, { compress: false });
    await w.appendTurn({ user: "Hello", assistant: "Hi!", ts: "2026-11-29T18:00:01.000Z" });
    await w.close();
    leaveDeadLock(w.dir);
    writeFileSync(join(w.dir, "session.cache.json"), "{not json");
    appendFileSync(w.logPath, "not json\n");
    const [chat] = (await listAllChats(dir, { compress: false })).chats;
    expect(Object.keys(chat ?? {})).toEqual([
      "id",
      "folder",
      "group",
      "cwd",
      "format",
      "created",
      "generations",
      "continues",
      "title",
      "firstActivity",
      "lastActivity",
      "messages",
      "models",
      "inputTokens",
      "outputTokens",
      "cached",
      "cacheState",
      "cacheReason",
      "behindBytes",
      "lock",
      "tail",
      "problems",
    ]);
    expect(chat?.problems.map((p) => [p.kind, p.path])).toEqual([
      ["lock", join(w.dir, "session.lock")],
      ["cache", join(w.dir, "session.cache.json")],
      ["line", w.logPath],
    ]);
    expect(chat).toMatchObject({ cached: false, cacheState: "unreadable", created: CREATED, messages: 2 });
  });

  it("without a header or a first time, judges the checkpoint by its own creation time, shown as first activity only", async () => {
    const dir = tempDir();
    const w = createChat(dir, { id: "c1", cwd: "/home/ana", created: CREATED }, { compress: false, format: 1 });
    await w.appendEvents([{ role: "user", text: "Hello" }]);
    await w.close();
    // The log tells no creation time; its checkpoint does (as one Oda wrote when it knew it).
    const cachePath = join(w.dir, "session.cache.json");
    const cache = JSON.parse(readFileSync(cachePath, "utf8"));
    writeFileSync(cachePath, JSON.stringify({ ...cache, identity: { ...cache.identity, created: CREATED } }));
    const [chat] = (await listAllChats(dir, { compress: false })).chats;
    expect(chat).toMatchObject({
      format: 1,
      cached: true,
      cacheState: "cached",
      created: null,
      firstActivity: CREATED,
      messages: 1,
    });
  });

  it("with no log at all, holds the folder's problems and says there is no log", async () => {
    const dir = tempDir();
    const w = createChat(dir, { id: "c1", cwd: "/home/ana", created: CREATED }, { compress: false });
    await w.appendTurn({ user: "Hello", assistant: "Hi!", ts: "2026-11-29T18:00:01.000Z" });
    await w.close();
    leaveDeadLock(w.dir);
    rmSync(w.logPath);
    const [chat] = (await listAllChats(dir, { compress: false })).chats;
    expect(chat?.problems.map((p) => p.kind)).toEqual(["lock", "no-log"]);
    expect(chat).toMatchObject({ format: null, cacheState: "none", generations: [] });
  });
});
