import { execSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import {
  appendCutSave,
  appendUnfinishedLine,
  createChat,
  leaveDeadLock,
  openChat,
  upgradeToFormat4,
} from "../../test-support/chats/testing";
import {
  findInChat,
  freeStaleLock,
  indexChat,
  listAllChats,
  nextErrorLine,
  openLogStream,
  readChat,
  readLines,
} from ".";

const T = "2026-11-29T18:";

async function oneChat(dir: string, id = "c1", cwd: string | null = "/home/ana", options = {}) {
  const w = createChat(dir, { id, cwd, created: `${T}00:00.000Z` }, options);
  await w.appendTurn({
    user: "Hello there",
    assistant: "Hi!",
    ts: `${T}00:01.000Z`,
    usage: { input_tokens: 10, output_tokens: 3 },
  });
  await w.appendEvents([{ type: "title", ts: `${T}00:05.000Z`, title: "Greeting" }]);
  await w.appendTurn({
    user: "Bye",
    assistant: "Bye!",
    ts: `${T}01:00.000Z`,
    model: "oda-small",
    usage: { input_tokens: 20, output_tokens: 2 },
  });
  await w.close();
  return w;
}

describe("the golden log folder made by the writer", () => {
  it("lists every chat with its details from checkpoints", async () => {
    const { chats, problems } = await listAllChats(tempDir("logs"));
    expect(problems).toEqual([]);
    expect(chats.map((c) => c.id)).toEqual(["c-2026-11-29-a1", "c-crash", "c-old/1"]);
    const a = chats[0];
    expect(a).toMatchObject({
      folder: "--%2Fhome%2Fana%2Freports--/c-2026-11-29-a1",
      cwd: "/home/ana/reports",
      format: 4,
      title: "Q3 sales summary",
      messages: 4,
      cached: true,
      cacheState: "cached",
      lastActivity: `${T}25:01.001Z`,
      firstActivity: `${T}24:08.123Z`,
      inputTokens: 120 + 2,
      lock: { state: "none" },
    });
    const old = chats[2]!;
    expect(old.generations.map((g) => [g.name, g.current])).toEqual([
      ["session.jsonl.zstd", false],
      ["session.v4.jsonl.zstd", true],
    ]);
  });

  it("rebuilt details equal the checkpoint's", async () => {
    const dir = tempDir("logs");
    const cached = (await listAllChats(dir)).chats[0]!;
    const rebuilt = (await listAllChats(dir, { verify: true })).chats[0]!;
    expect(rebuilt.title).toBe(cached.title);
    expect(rebuilt.messages).toBe(cached.messages);
    expect(rebuilt.lastActivity).toBe(cached.lastActivity);
    expect(rebuilt.inputTokens).toBe(cached.inputTokens);
    expect(rebuilt.models).toEqual(["oda-large-2026-10", "oda-small-2026-09"]);
  });

  it("keeps unknown event types as they are", async () => {
    const read = await readLines(tempDir("logs"), "c-2026-11-29-a1", { from: 1, count: 100 });
    const custom = read.lines.find((l) => l.json?.type === "custom-thing");
    expect(custom?.json).toEqual({ type: "custom-thing", ts: `${T}24:12.500Z`, x: [1, 2] });
    expect(custom?.error).toBeUndefined();
    expect(read.total).toBe(read.lines.length);
    expect(read.tail?.state).toBe("complete");
  });
});

describe("walking the log folder", () => {
  it("reports names that do not decode as problems, not chats", async () => {
    const dir = tempDir();
    await oneChat(dir);
    mkdirSync(join(dir, "--%2fbad--", "c2"), { recursive: true });
    mkdirSync(join(dir, "stray"), { recursive: true });
    mkdirSync(join(dir, "_no-cwd", "a b"), { recursive: true });
    const { chats, problems } = await listAllChats(dir);
    expect(chats.map((c) => c.id)).toEqual(["c1"]);
    expect(problems.map((p) => p.message)).toEqual([
      'The folder "--%2fbad--" is not a chat group: its name is neither --<working folder>-- with a working folder that decodes, nor _no-cwd.',
      'The folder name "a b" does not decode to a chat id.',
      'The folder "stray" is not a chat group: its name is neither --<working folder>-- with a working folder that decodes, nor _no-cwd.',
    ]);
  });

  it("refuses the same chat in two places, naming both paths", async () => {
    const dir = tempDir();
    const w = await oneChat(dir);
    cpSync(w.dir, join(dir, "_no-cwd", "c1"), { recursive: true });
    const { chats, problems } = await listAllChats(dir);
    const sentence = `Chat "c1" is stored in two places: ${w.dir} and ${join(dir, "_no-cwd", "c1")}.`;
    expect(chats).toEqual([]);
    expect(problems.map((p) => p.message)).toEqual([sentence]);
    // Both copies and the chat as data: nothing parses them back out of the sentence.
    expect(problems.map((p) => [p.paths, p.chat])).toEqual([[[w.dir, join(dir, "_no-cwd", "c1")], "c1"]]);
    await expect(readLines(dir, "c1", { from: 1, count: 1 })).rejects.toThrow(sentence);
    await expect(readLines(dir, "c1", { from: 1, count: 1 })).rejects.toMatchObject({
      code: "refused",
      data: { problem: "duplicate", paths: [w.dir, join(dir, "_no-cwd", "c1")] },
    });
  });

  it("reads only exact log names: a renamed copy is not a log", async () => {
    const dir = tempDir();
    const w = await oneChat(dir);
    cpSync(w.logPath, join(w.dir, "session.v1.backup.jsonl.zstd"));
    cpSync(w.logPath, join(w.dir, "session.v04.jsonl.zstd"));
    const [chat] = (await listAllChats(dir)).chats;
    expect(chat?.generations.map((g) => g.name)).toEqual(["session.v4.jsonl.zstd"]);
  });

  it("writes nothing for a chat that never had content", async () => {
    const dir = tempDir();
    createChat(dir, { id: "empty", cwd: "/x" });
    expect((await listAllChats(dir)).chats).toEqual([]);
    expect(existsSync(join(dir, "--%2Fx--"))).toBe(false);
  });
});

describe("the folder's form", () => {
  it("refuses a log of the other form with the contract's sentence and leaves it as it is", async () => {
    const dir = tempDir();
    const w = await oneChat(dir);
    const plain = join(w.dir, "session.jsonl");
    writeFileSync(plain, '{"time":"t","role":"user","text":"x"}\n');
    const [chat] = (await listAllChats(dir)).chats;
    expect(chat?.problems.map((p) => p.message)).toEqual([
      `${plain} is plain but this log folder keeps zstd-compressed logs. raw log: ${plain}`,
    ]);
    expect(chat?.format).toBe(4);
    expect(readFileSync(plain, "utf8")).toBe('{"time":"t","role":"user","text":"x"}\n');
  });

  it("refuses the chat when its newest log is of the other form (never falls back to an older state)", async () => {
    const dir = tempDir();
    const w = await oneChat(dir, "c1", null, { format: 1 });
    const v4 = join(w.dir, "session.v4.jsonl");
    writeFileSync(v4, '{"type":"session","format":4,"id":"c1","created":"x","cwd":null,"continues":null}\n');
    const [chat] = (await listAllChats(dir)).chats;
    expect(chat?.format).toBeNull();
    expect(chat?.problems[0]?.message).toBe(
      `${v4} is plain but this log folder keeps zstd-compressed logs. raw log: ${v4}`,
    );
    await expect(readLines(dir, "c1", { from: 1, count: 1 })).rejects.toThrow("has no usable log");
    await expect(readLines(dir, "c1", { from: 1, count: 1, generation: "session.v4.jsonl" })).rejects.toThrow(
      `${v4} is plain but this log folder keeps zstd-compressed logs. raw log: ${v4}`,
    );
  });

  it("reads a plain log folder when settings say compress: false", async () => {
    const dir = tempDir();
    await oneChat(dir, "p1", "/w", { compress: false });
    const [chat] = (await listAllChats(dir, { compress: false })).chats;
    expect(chat).toMatchObject({ format: 4, messages: 4, cached: true, problems: [] });
    const [refused] = (await listAllChats(dir, { compress: true })).chats;
    expect(refused?.problems[0]?.message).toContain(
      "is plain but this log folder keeps zstd-compressed logs. raw log: ",
    );
  });
});

describe("generations", () => {
  it("upgrading a format 1 log adds a format 4 log beside it and leaves the source exactly as it was", async () => {
    const dir = tempDir();
    const w = await oneChat(dir, "old", "/w", { format: 1 });
    const before = readFileSync(w.logPath);
    const v4 = await upgradeToFormat4(dir, "old");
    expect(readFileSync(w.logPath).equals(before)).toBe(true);
    const chat = await readChat(dir, "old");
    expect(chat.generations.map((g) => [g.name, g.current])).toEqual([
      ["session.jsonl.zstd", false],
      ["session.v4.jsonl.zstd", true],
    ]);
    expect(chat.header).toMatchObject({ type: "session", format: 4, id: "old", cwd: "/w" });
    expect(chat.messages).toBe(4);
    const oldLines = await readLines(dir, "old", { from: 1, count: 10, generation: "session.jsonl.zstd" });
    expect(oldLines.lines[0]?.json).toEqual({ time: `${T}00:01.000Z`, role: "user", text: "Hello there" });
    expect(v4).toBe(join(w.dir, "session.v4.jsonl.zstd"));
  });
});

describe("checkpoints", () => {
  // biome-ignore lint/suspicious/noExplicitAny: the test edits parsed JSON freely
  async function withCache(edit: (cache: Record<string, any>) => void) {
    const dir = tempDir();
    const w = await oneChat(dir);
    const path = join(w.dir, "session.cache.json");
    const cache = JSON.parse(readFileSync(path, "utf8"));
    edit(cache);
    writeFileSync(path, JSON.stringify(cache));
    return { dir, w, chat: (await listAllChats(dir)).chats[0] };
  }

  it("serves a checkpoint that fits as cached", async () => {
    const { chat } = await withCache(() => {});
    expect(chat).toMatchObject({ cached: true, cacheState: "cached", title: "Greeting", behindBytes: 0 });
  });

  it("serves a checkpoint that is behind the log, saying by how much", async () => {
    const dir = tempDir();
    const w = await oneChat(dir);
    const reopened = await openChat(dir, "c1");
    const before = readFileSync(w.logPath).length;
    await reopened.appendEvents([{ type: "title", ts: `${T}09:00.000Z`, title: "Newer title" }]);
    const [chat] = (await listAllChats(dir)).chats;
    expect(chat).toMatchObject({ cached: true, cacheState: "behind", title: "Greeting" });
    expect(chat?.behindBytes).toBe(readFileSync(w.logPath).length - before);
    await reopened.close();
    expect((await listAllChats(dir)).chats[0]).toMatchObject({ cacheState: "cached", title: "Newer title" });
  });

  it("discards a checkpoint that is ahead of the log and rebuilds from the log", async () => {
    const { chat } = await withCache((c) => {
      c.log.bytes += 10;
      c.details.title = "WRONG";
    });
    expect(chat).toMatchObject({ cached: false, cacheState: "discarded", title: "Greeting" });
    expect(chat?.cacheReason).toMatch(/ahead of the log/);
    expect(chat?.problems.map((p) => [p.kind, p.message])).toEqual([
      [
        "cache",
        `The checkpoint does not match the log and was discarded: ${chat?.cacheReason} The details were rebuilt from the log.`,
      ],
    ]);
  });

  it("discards a checkpoint whose tail hash, log name or identity no longer fits", async () => {
    const hash = await withCache((c) => {
      c.log.tailSha256 = "0".repeat(64);
      c.details.messages = 99;
    });
    expect(hash.chat).toMatchObject({ cacheState: "discarded", messages: 4 });
    const name = await withCache((c) => {
      c.log.name = "session.jsonl.zstd";
    });
    expect(name.chat?.cacheState).toBe("discarded");
    const created = await withCache((c) => {
      c.identity.created = "2020-01-01T00:00:00.000Z";
    });
    expect(created.chat?.cacheState).toBe("discarded");
  });

  it("rebuilds when the chat moved to another working folder", async () => {
    const dir = tempDir();
    const w = await oneChat(dir);
    mkdirSync(join(dir, "--%2Fsomewhere--"));
    renameSync(w.dir, join(dir, "--%2Fsomewhere--", "c1"));
    const [chat] = (await listAllChats(dir)).chats;
    expect(chat?.cacheState).toBe("discarded");
    expect(chat?.problems.map((p) => p.kind)).toEqual(["identity", "cache"]);
    expect(chat?.problems[1]).toEqual({
      kind: "cache",
      path: join(dir, "--%2Fsomewhere--", "c1", "session.cache.json"),
      paths: [join(dir, "--%2Fsomewhere--", "c1", "session.cache.json")],
      message:
        'The checkpoint does not match the log and was discarded: The checkpoint\'s cwd "/home/ana" does not match the chat\'s "/somewhere". The details were rebuilt from the log.',
    });
  });

  it("reports an unreadable checkpoint and rebuilds from the log", async () => {
    const dir = tempDir();
    const w = await oneChat(dir);
    writeFileSync(join(w.dir, "session.cache.json"), "{not json");
    const [chat] = (await listAllChats(dir)).chats;
    expect(chat).toMatchObject({ cached: false, cacheState: "unreadable", title: "Greeting", messages: 4 });
    expect(chat?.problems[0]?.kind).toBe("cache");
    expect(readFileSync(join(w.dir, "session.cache.json"), "utf8")).toBe("{not json");
  });
});

describe("lines and tails", () => {
  it("reports a complete line that is not a JSON object at its line number", async () => {
    const dir = tempDir();
    const w = await oneChat(dir);
    writeFileSync(
      w.logPath,
      Buffer.concat([
        readFileSync(w.logPath),
        await compress(Buffer.from('[1,2]\n{"type":"turn_end","ts":"x"}\nnot json\n'), 3),
      ]),
    );
    const chat = await readChat(dir, "c1");
    const lines = chat.lines as number;
    expect(chat.problems.filter((p) => p.kind === "line").map((p) => p.message)).toEqual([
      `Line ${lines - 2} of the log is not a JSON object. raw log: ${w.logPath}`,
      `Line ${lines} of the log is not a JSON object. raw log: ${w.logPath}`,
    ]);
    const read = await readLines(dir, "c1", { from: lines - 2, count: 3 });
    expect(read.lines.map((l) => l.error ?? null)).toEqual([
      `Line ${lines - 2} is not a JSON object.`,
      null,
      `Line ${lines} is not a JSON object.`,
    ]);
    expect((await nextErrorLine(dir, "c1"))?.n).toBe(lines - 2);
    expect((await nextErrorLine(dir, "c1", { from: lines - 1 }))?.n).toBe(lines);
  });

  it("keeps every complete line before a cut frame and reports the frame's byte offset", async () => {
    const dir = tempDir();
    const w = createChat(dir, { id: "cut", cwd: null, created: `${T}00:00.000Z` });
    await w.appendTurn({ user: "kept", assistant: "kept too", ts: `${T}00:01.000Z` });
    const size = readFileSync(w.logPath).length;
    await appendCutSave(w, [{ type: "message", ts: "t", role: "user", content: "x".repeat(500) }], (n) => n - 3);
    const chat = await readChat(dir, "cut");
    expect(chat.tail?.state).toBe("cut-frame");
    expect(chat.tail?.frameOffset).toBe(size);
    expect(chat.lock.state).toBe("live");
    const read = await readLines(dir, "cut", { from: 1, count: 10 });
    expect(read.lines.map((l) => l.json?.type)).toEqual(["session", "message", "message", "turn_end"]);
    expect(read.tail?.message).toMatch(
      new RegExp(
        `^The log's last zstd frame is cut off at byte ${size}; .* raw log: ${w.logPath.replace(/[.]/g, "\\.")}$`,
      ),
    );
  });

  it("reports a plain log's unfinished last line with its offset", async () => {
    const dir = tempDir();
    const w = createChat(dir, { id: "p", cwd: null, created: `${T}00:00.000Z` }, { compress: false });
    await w.appendTurn({ user: "a", assistant: "b", ts: `${T}00:01.000Z` });
    const size = readFileSync(w.logPath).length;
    await appendUnfinishedLine(w, { type: "message", ts: "t", role: "user", content: "half" }, 12);
    const read = await readLines(dir, "p", { from: 1, count: 100, compress: false });
    expect(read.lines).toHaveLength(4);
    expect(read.tail).toMatchObject({ state: "unfinished-line", offset: size, pendingBytes: 12 });
    expect(read.tail?.message).toBe(
      `The log ends with an unfinished line at byte ${size} (12 bytes, no newline); every complete line before it was kept. raw log: ${w.logPath}`,
    );
  });

  it("pages through a long log with a sparse index and extends it when the log grows", async () => {
    const dir = tempDir();
    const w = createChat(dir, { id: "long", cwd: null, created: `${T}00:00.000Z` });
    for (let i = 0; i < 60; i++) {
      const events = Array.from({ length: 100 }, (_, j) => ({
        type: "message",
        ts: `${T}00:00.000Z`,
        role: "user",
        content: `${i}-${j} ${randomBytes(2400).toString("base64")}`,
      }));
      await w.appendEvents(events);
    }
    const index = await indexChat(dir, "long");
    expect(index.lines).toBe(6001);
    expect(index.points.length).toBeGreaterThan(2);
    const middle = await readLines(dir, "long", { from: 3002, count: 3 });
    expect(middle.lines.map((l) => String(l.json?.content).split(" ")[0])).toEqual(["30-0", "30-1", "30-2"]);
    expect(middle.total).toBe(6001);
    const last = await readLines(dir, "long", { from: -1, count: 2 });
    expect(last.lines.map((l) => l.n)).toEqual([6000, 6001]);
    await w.appendEvents([{ type: "title", ts: "t", title: "follow me" }]);
    const grown = await indexChat(dir, "long");
    expect(grown.lines).toBe(6002);
    expect(grown.points.slice(0, index.points.length - 1)).toEqual(index.points.slice(0, -1));
    const follow = await readLines(dir, "long", { from: 6002, count: 10 });
    expect(follow.lines.map((l) => l.json?.title)).toEqual(["follow me"]);
    expect((await findInChat(dir, "long", "59-99"))?.n).toBe(6001);
    await w.close();
  });

  it("streams a log's decompressed bytes for download, as zstd -dc prints them", async () => {
    const dir = tempDir();
    const w = await oneChat(dir);
    const chunks: Buffer[] = [];
    for await (const chunk of openLogStream(w.logPath)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(execSync(`zstd -dc < '${w.logPath}'`))).toBe(true);
  });
});

describe("one writer at a time", () => {
  it("refuses a second writer with the seed's sentence while reading stays open", async () => {
    const dir = tempDir();
    const w = createChat(dir, { id: "busy", cwd: "/w" });
    await w.appendTurn({ user: "a", assistant: "b" });
    await expect(openChat(dir, "busy")).rejects.toThrow('session "busy" is already owned by an active write handle');
    expect(() => createChat(dir, { id: "busy", cwd: "/w" })).toThrow();
    expect((await readLines(dir, "busy", { from: 1, count: 10 })).lines).toHaveLength(4);
    expect((await listAllChats(dir)).chats[0]).toMatchObject({ lock: { state: "live" }, problems: [] });
    await w.close();
    expect((await listAllChats(dir)).chats[0]?.lock.state).toBe("none");
    const again = await openChat(dir, "busy");
    await again.close();
  });

  it("a lock left by a dead process is stale; freeing it needs the same pid and removes only that file", async () => {
    const dir = tempDir();
    const w = await oneChat(dir);
    const holder = leaveDeadLock(w.dir);
    const [chat] = (await listAllChats(dir)).chats;
    expect(chat?.lock).toMatchObject({ state: "stale", pid: holder.pid });
    expect(chat?.problems).toEqual([
      {
        kind: "lock",
        path: join(w.dir, "session.lock"),
        paths: [join(w.dir, "session.lock")],
        message: `The session.lock is stale (held by process ${holder.pid} on ${holder.host}, started ${holder.startedAt}): Process ${holder.pid} is no longer running. Oda cannot write this chat until the lock file is removed.`,
      },
    ]);
    expect(() => freeStaleLock(dir, "c1", { expectPid: holder.pid + 1 })).toThrow("no longer names process");
    expect(freeStaleLock(dir, "c1", { expectPid: holder.pid }).state).toBe("stale");
    expect(existsSync(join(w.dir, "session.lock"))).toBe(false);
    expect(existsSync(w.logPath)).toBe(true);
  });

  it("refuses to free a live lock", async () => {
    const dir = tempDir();
    const w = createChat(dir, { id: "live", cwd: null });
    await w.appendTurn({ user: "a", assistant: "b" });
    expect(() => freeStaleLock(dir, "live", { expectPid: process.pid })).toThrow("is not provably stale");
    await w.close();
  });

  it("a new writer takes over a provably stale lock (a crash leaves no stuck lock)", async () => {
    const dir = tempDir();
    const w = await oneChat(dir);
    leaveDeadLock(w.dir);
    const next = await openChat(dir, "c1");
    expect(JSON.parse(readFileSync(join(w.dir, "session.lock"), "utf8")).pid).toBe(process.pid);
    await next.close();
  });
});
