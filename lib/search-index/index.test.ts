import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createChat, openChat, settleFolder } from "../../test-support/chats/testing";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { encodeName, groupName } from "../chats";
import {
  closeAllIndexes,
  indexStatus,
  listChatsFromIndex,
  openIndex,
  refreshIndex,
  searchChats,
  startIndexRefresh,
} from ".";

const roots = tempIndexRoots("oda-index-");

async function writeChat(
  logs: string,
  id: string,
  cwd: string | null,
  turns: [string, string][],
  options: { compress?: boolean; format?: number; day?: string } = {},
) {
  const writer = createChat(
    logs,
    { id, cwd, created: `${options.day ?? "2026-11-20"}T09:00:00.000Z` },
    { compress: options.compress ?? true, format: options.format ?? 4 },
  );
  let minute = 0;
  for (const [user, assistant] of turns) {
    await writer.appendTurn({
      user,
      assistant,
      ts: `${options.day ?? "2026-11-20"}T09:${String(++minute).padStart(2, "0")}:00.000Z`,
    });
  }
  await writer.close();
  return writer;
}

const hitLines = (r: Awaited<ReturnType<typeof searchChats>>, id: string) =>
  r.groups.find((g) => g.id === id)?.hits.map((h) => h.line) ?? [];

describe.each([true, false])("search (compressed: %s)", (compress) => {
  it("finds words in format 4 and format 1 logs, at their line numbers, with marked snippets", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "c-four", "/home/ana/reports", [["Where is the quarterly budget?", "In reports/q3.xlsx."]], {
      compress,
    });
    await writeChat(logs, "c-one", null, [["Old chat about the budget", "Noted: café receipts"]], {
      compress,
      format: 1,
    });
    const result = await refreshIndex(state, logs, { compress });
    expect(result).toMatchObject({ chats: 2, added: 2, reindexed: 2, removed: 0 });
    const found = await searchChats(state, logs, { query: "budget" });
    expect(found.groups.map((g) => g.id).sort()).toEqual(["c-four", "c-one"]);
    // Format 4: line 1 is the header, line 2 the user message; format 1: line 1.
    expect(hitLines(found, "c-four")).toEqual([2]);
    expect(hitLines(found, "c-one")).toEqual([1]);
    const four = found.groups.find((g) => g.id === "c-four");
    expect(four?.hits[0]?.role).toBe("user");
    expect(four?.hits[0]?.snippet.filter((p) => p.hit).map((p) => p.text)).toEqual(["budget"]);
    expect(four).toMatchObject({ cwd: "/home/ana/reports", title: "Where is the quarterly budget?" });
    // Diacritics are folded; phrases and prefixes work.
    expect(hitLines(await searchChats(state, logs, { query: "cafe" }), "c-one")).toEqual([2]);
    expect((await searchChats(state, logs, { query: '"quarterly budget"' })).groups.map((g) => g.id)).toEqual([
      "c-four",
    ]);
    expect((await searchChats(state, logs, { query: "quarter*" })).groups.map((g) => g.id)).toEqual(["c-four"]);
    expect((await searchChats(state, logs, { query: "budget NOT quarterly" })).groups.map((g) => g.id)).toEqual([
      "c-one",
    ]);
  });
});

describe("incremental refresh", () => {
  it("reads only the new lines of a log that grew", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "grow", "/w", [["first question", "first answer"]]);
    await writeChat(logs, "still", "/w", [["untouched", "yes"]]);
    // Written long before: none racy, so "still" is left alone.
    settleFolder(logs);
    await refreshIndex(state, logs);
    const writer = await openChat(logs, "grow");
    await writer.appendTurn({
      user: "second question about zebras",
      assistant: "zebras answer",
      ts: "2026-11-21T10:00:00.000Z",
    });
    await writer.close();
    const result = await refreshIndex(state, logs);
    expect(result).toMatchObject({ chats: 2, changed: 1, appended: 1, reindexed: 0, added: 0 });
    // Header + 3 lines of the first turn were not read again: only the new turn's 3 lines.
    expect(result.linesRead).toBe(3);
    const found = await searchChats(state, logs, { query: "zebras" });
    expect(hitLines(found, "grow")).toEqual([5, 6]);
    // The old lines are still there exactly once.
    expect((await searchChats(state, logs, { query: "first" })).groups[0]?.count).toBe(2);
    expect((await listChatsFromIndex(state, logs)).chats.find((c) => c.id === "grow")?.messages).toBe(4);
  });

  it("finds an append whose log got its old mtime back (the same log is the same size too)", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "sly", "/w", [["first question", "first answer"]], { compress: false });
    await refreshIndex(state, logs, { compress: false });
    const writer = await openChat(logs, "sly", { compress: false });
    // touch -r copies the time to the nanosecond, which utimes with a Date or a double cannot.
    const reference = join(logs, "mtime-reference");
    execFileSync("touch", ["-r", writer.logPath, reference]);
    const before = statSync(writer.logPath, { bigint: true });
    await writer.appendTurn({ user: "okapis question", assistant: "okapis answer", ts: "2026-11-21T10:00:00.000Z" });
    await writer.close();
    execFileSync("touch", ["-m", "-r", reference, writer.logPath]);
    rmSync(reference);
    const after = statSync(writer.logPath, { bigint: true });
    expect([after.mtimeNs, after.ino]).toEqual([before.mtimeNs, before.ino]);
    expect(after.size).toBeGreaterThan(before.size);
    const result = await refreshIndex(state, logs, { compress: false });
    expect(result).toMatchObject({ chats: 1, changed: 1, appended: 1, reindexed: 0 });
    expect(hitLines(await searchChats(state, logs, { query: "okapis" }), "sly")).toEqual([5, 6]);
    expect((await listChatsFromIndex(state, logs)).chats.find((c) => c.id === "sly")?.messages).toBe(4);
  });

  it("verifies a racy chat again: a same-size rewrite in the same tick as the refresh is caught", async () => {
    const { logs, state } = roots();
    const w = await writeChat(logs, "racy", "/w", [["apples question", "pears answer"]], { compress: false });
    // Refreshed at once: the log's time is within 2 s of its fingerprint, so the index is not up to date.
    await refreshIndex(state, logs, { compress: false });
    expect((await listChatsFromIndex(state, logs, { compress: false })).freshness).toMatchObject({
      fresh: false,
      changed: 1,
    });
    // Rewritten in place, the same size, its time to the nanosecond as before (a write in the same tick).
    const reference = join(logs, "mtime-reference");
    execFileSync("touch", ["-r", w.logPath, reference]);
    const before = statSync(w.logPath, { bigint: true });
    const text = (await import("node:fs")).readFileSync(w.logPath, "utf8");
    writeFileSync(w.logPath, text.replace("apples", "melons"));
    execFileSync("touch", ["-m", "-r", reference, w.logPath]);
    rmSync(reference);
    const after = statSync(w.logPath, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    const result = await refreshIndex(state, logs, { compress: false });
    expect(result).toMatchObject({ changed: 1, reindexed: 1 });
    expect(hitLines(await searchChats(state, logs, { query: "melons" }), "racy")).toEqual([2]);
    expect((await searchChats(state, logs, { query: "apples" })).groups).toEqual([]);
    // Once its files are older than 2 s at a refresh, the chat is up to date and left alone.
    settleFolder(logs);
    await refreshIndex(state, logs, { compress: false });
    expect((await listChatsFromIndex(state, logs, { compress: false })).freshness.fresh).toBe(true);
    expect(await refreshIndex(state, logs, { compress: false })).toMatchObject({ changed: 0, linesRead: 0 });
  });

  it("re-reads a log that was replaced rather than grown", async () => {
    const { logs, state } = roots();
    const w = await writeChat(logs, "swap", "/w", [["apples", "pears"]], { compress: false });
    await refreshIndex(state, logs, { compress: false });
    writeFileSync(
      w.logPath,
      `${JSON.stringify({ type: "session", format: 4, id: "swap", created: "2026-11-20T09:00:00.000Z", cwd: "/w", continues: null })}\n${JSON.stringify({ type: "message", ts: "2026-11-20T09:01:00.000Z", role: "user", content: [{ type: "text", text: "bananas and more bananas, a longer line than before" }] })}\n`,
    );
    const result = await refreshIndex(state, logs, { compress: false });
    expect(result).toMatchObject({ changed: 1, reindexed: 1, appended: 0 });
    expect((await searchChats(state, logs, { query: "apples" })).groups).toEqual([]);
    expect(hitLines(await searchChats(state, logs, { query: "bananas" }), "swap")).toEqual([2]);
  });

  it("adds new chats, drops removed ones and leaves unchanged ones alone", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "keep", "/a", [["kept words", "ok"]]);
    const gone = await writeChat(logs, "gone", "/a", [["vanishing words", "ok"]]);
    settleFolder(logs);
    await refreshIndex(state, logs);
    rmSync(gone.dir, { recursive: true });
    settleFolder((await writeChat(logs, "new", "/b", [["fresh words", "ok"]])).dir);
    expect((await listChatsFromIndex(state, logs)).freshness).toMatchObject({
      fresh: false,
      added: 1,
      removed: 1,
      changed: 0,
    });
    const result = await refreshIndex(state, logs);
    expect(result).toMatchObject({ chats: 2, added: 1, removed: 1, changed: 0, reindexed: 1 });
    expect((await searchChats(state, logs, { query: "vanishing" })).groups).toEqual([]);
    expect((await searchChats(state, logs, { query: "fresh" })).groups.map((g) => g.id)).toEqual(["new"]);
    const again = await refreshIndex(state, logs);
    expect(again).toMatchObject({ added: 0, changed: 0, removed: 0, linesRead: 0 });
    const listed = await listChatsFromIndex(state, logs);
    expect(listed.freshness.fresh).toBe(true);
    expect(listed.chats.map((c) => c.id).sort()).toEqual(["keep", "new"]);
  });

  it("refreshes the details when only the checkpoint changed, without re-reading the log", async () => {
    const { logs, state } = roots();
    const w = await writeChat(logs, "cp", "/a", [["checkpoint words", "ok"]]);
    // Not racy: the log's size and time are trusted, so only the checkpoint is read again.
    settleFolder(logs);
    await refreshIndex(state, logs);
    expect((await listChatsFromIndex(state, logs)).sources.cp).toBe("checkpoint");
    const cachePath = join(w.dir, "session.cache.json");
    const checkpoint = JSON.parse((await import("node:fs")).readFileSync(cachePath, "utf8"));
    checkpoint.details.title = "Renamed by the checkpoint";
    writeFileSync(cachePath, JSON.stringify(checkpoint));
    utimesSync(cachePath, new Date(), new Date(Date.now() + 5000));
    const result = await refreshIndex(state, logs);
    expect(result).toMatchObject({ changed: 1, reindexed: 0, appended: 0, linesRead: 0 });
    const chat = (await listChatsFromIndex(state, logs)).chats[0];
    expect(chat).toMatchObject({ title: "Renamed by the checkpoint", cached: true });
    // A checkpoint that no longer fits is discarded: the details come from the log.
    checkpoint.log.tailSha256 = "0".repeat(64);
    writeFileSync(cachePath, JSON.stringify(checkpoint));
    utimesSync(cachePath, new Date(), new Date(Date.now() + 10000));
    await refreshIndex(state, logs);
    const rebuilt = await listChatsFromIndex(state, logs);
    expect(rebuilt.sources.cp).toBe("log");
    expect(rebuilt.chats[0]).toMatchObject({ title: "checkpoint words", cached: false, cacheState: "discarded" });
  });
});

describe("a damaged or foreign index", () => {
  it("sets a corrupt file aside and rebuilds", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "c", "/a", [["rebuilt words", "ok"]]);
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, "index.sqlite"), "this is not a database at all, just bytes ".repeat(200));
    const result = await refreshIndex(state, logs);
    expect(result.setAside?.path).toMatch(/index\.sqlite\.corrupt-/);
    expect(result.setAside?.reason).toMatch(/not a database/);
    // Rebuilt into a new file, and the bad one removed: nothing piles up in the state folder.
    expect(readdirSync(state).filter((n) => n.includes(".corrupt-"))).toEqual([]);
    expect((await searchChats(state, logs, { query: "rebuilt" })).groups.map((g) => g.id)).toEqual(["c"]);
  });

  it("removes bad index files an earlier version set aside and kept", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "c", "/a", [["kept words", "ok"]]);
    mkdirSync(state, { recursive: true });
    const old = ["index.sqlite.corrupt-2026-11-01T10-00-00-000Z", "index.sqlite.corrupt-2026-11-02T10-00-00-000Z-wal"];
    for (const name of old) writeFileSync(join(state, name), "damaged");
    writeFileSync(join(state, "notes.txt"), "not the index's");
    await refreshIndex(state, logs);
    expect(readdirSync(state).filter((n) => n.includes(".corrupt-"))).toEqual([]);
    expect(readdirSync(state)).toContain("notes.txt");
    expect((await searchChats(state, logs, { query: "kept" })).groups.map((g) => g.id)).toEqual(["c"]);
  });

  it("sets aside a database file cut short (a damaged disk image) and rebuilds", async () => {
    const { logs, state } = roots();
    for (let i = 0; i < 40; i++) await writeChat(logs, `cut-${i}`, "/a", [[`damaged words ${i} `.repeat(50), "ok"]]);
    await refreshIndex(state, logs);
    closeAllIndexes();
    const file = join(state, "index.sqlite");
    const { size } = statSync(file);
    truncateSync(file, Math.floor(size / 2));
    const result = await refreshIndex(state, logs);
    expect(result.setAside?.path).toMatch(/index\.sqlite\.corrupt-/);
    expect(result.added).toBe(40);
    expect((await searchChats(state, logs, { query: "damaged" })).totalChats).toBe(40);
  });

  it("sets aside an index built for another log folder", async () => {
    const { logs, state } = roots();
    const other = join(logs, "..", "other-logs");
    mkdirSync(other);
    await writeChat(other, "elsewhere", "/a", [["other folder words", "ok"]]);
    await writeChat(logs, "here", "/a", [["this folder words", "ok"]]);
    await refreshIndex(state, other);
    closeAllIndexes();
    const handle = openIndex(state, logs);
    expect(handle.setAside?.reason).toMatch(/built for the log folder/);
    await refreshIndex(state, logs);
    expect((await searchChats(state, logs, { query: "folder" })).groups.map((g) => g.id)).toEqual(["here"]);
  });
});

describe("queries and filters", () => {
  it("answers a query FTS5 cannot read with a sentence, and searches punctuated words as typed", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "q", "/a", [["deploy to staging-server now", "done"]]);
    await refreshIndex(state, logs);
    await expect(searchChats(state, logs, { query: '"unclosed' })).rejects.toThrow(
      /cannot be read.*Use words, "exact phrases"/,
    );
    await expect(searchChats(state, logs, { query: "   " })).rejects.toThrow("Type something to search for.");
    expect((await searchChats(state, logs, { query: "staging-server" })).groups.map((g) => g.id)).toEqual(["q"]);
    // Groups stay syntax when the words in them are quoted; a stray dash is no word.
    expect((await searchChats(state, logs, { query: "(staging-server OR nowhere)" })).totalHits).toBe(1);
    expect((await searchChats(state, logs, { query: "deploy - now" })).totalHits).toBe(1);
  });

  it("names what is wrong with a query it cannot parse, instead of finding no chat", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "q", "/a", [["revenue grew", "done"]]);
    await refreshIndex(state, logs);
    const wrong = async (query: string) =>
      (await searchChats(state, logs, { query }).then(
        () => "found",
        (e: Error) => e.message,
      )) as string;
    expect(await wrong("revenue AND (")).toBe(
      'The search "revenue AND (" cannot be read: a ( is never closed. Use words, "exact phrases", prefix*, AND, OR, NOT and parentheses, for example: deploy NOT "staging server".',
    );
    expect(await wrong("revenue )")).toMatch(/^The search "revenue \)" cannot be read: a \) closes no \(\. /);
    expect(await wrong("revenue OR")).toMatch(/cannot be read: OR has nothing after it\. /);
    expect(await wrong("NOT revenue")).toMatch(/cannot be read: NOT has nothing before it\. /);
  });

  it("indexes tool calls and memory lines, and filters by role, folder, dates and problems", async () => {
    const { logs, state } = roots();
    const w = createChat(logs, { id: "tools", cwd: "/proj", created: "2026-11-10T08:00:00.000Z" });
    await w.appendEvents([
      { type: "memory", ts: "2026-11-10T08:00:01.000Z", mode: "full", text: "## Reply language\nAnswer in Norwegian." },
      {
        type: "message",
        ts: "2026-11-10T08:00:02.000Z",
        role: "assistant",
        content: [
          { type: "text", text: "Let me look at the Norwegian files." },
          { type: "tool_use", id: "t1", name: "read_file", input: { path: "/proj/norwegian.md" } },
        ],
      },
    ]);
    await w.close();
    await writeChat(logs, "late", "/other", [["norwegian again", "ja"]], { day: "2026-11-25" });
    // A chat with a line that is not JSON has a problem.
    const broken = await writeChat(logs, "broken", "/other", [["norwegian broken", "ok"]], { compress: false });
    (await import("node:fs")).appendFileSync(broken.logPath, "not json norwegian\n");
    await refreshIndex(state, logs, { compress: true });
    await refreshIndex(state, logs, { compress: true });
    const all = await searchChats(state, logs, { query: "norwegian" });
    expect(all.groups.map((g) => g.id).sort()).toEqual(["late", "tools"]);
    const tools = all.groups.find((g) => g.id === "tools");
    expect(tools?.hits.map((h) => [h.line, h.role])).toEqual([
      [2, "memory"],
      [3, "assistant"],
      [3, "tool"],
    ]);
    expect((await searchChats(state, logs, { query: "read_file", role: "tool" })).groups.map((g) => g.id)).toEqual([
      "tools",
    ]);
    expect((await searchChats(state, logs, { query: "norwegian", role: "memory" })).totalHits).toBe(1);
    expect((await searchChats(state, logs, { query: "norwegian", cwd: "/other" })).groups.map((g) => g.id)).toEqual([
      "late",
    ]);
    expect(
      (await searchChats(state, logs, { query: "norwegian", since: "2026-11-20" })).groups.map((g) => g.id),
    ).toEqual(["late"]);
    expect(
      (await searchChats(state, logs, { query: "norwegian", until: "2026-11-10" })).groups.map((g) => g.id),
    ).toEqual(["tools"]);
    await expect(searchChats(state, logs, { query: "x", since: "last week" })).rejects.toThrow(/is not a date/);
  });

  it("marks chats with problems and narrows to them", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "ok", "/a", [["shared word", "fine"]], { compress: false });
    const bad = await writeChat(logs, "bad", "/a", [["shared word", "fine"]], { compress: false });
    (await import("node:fs")).appendFileSync(bad.logPath, "shared but not json\n");
    settleFolder(logs);
    await refreshIndex(state, logs, { compress: false });
    const found = await searchChats(state, logs, { query: "shared", problems: true });
    expect(found.groups.map((g) => g.id)).toEqual(["bad"]);
    expect(found.groups[0]?.hits.map((h) => [h.line, h.role])).toEqual([
      [2, "user"],
      [5, "unparsed"],
    ]);
    // Appending to the log reads only the new lines and keeps the bad line counted.
    const more = await openChat(logs, "bad", { compress: false });
    await more.appendTurn({ user: "shared later", assistant: "fine", ts: "2026-11-22T09:00:00.000Z" });
    await more.close();
    expect(await refreshIndex(state, logs, { compress: false })).toMatchObject({ appended: 1, linesRead: 3 });
    const after = await searchChats(state, logs, { query: "shared", problems: true });
    expect(after.groups.map((g) => [g.id, g.count])).toEqual([["bad", 3]]);
  });
});

describe("a word in most chats", () => {
  it("probes chats newest first and gives the same groups as collecting every hit", async () => {
    const { logs, state } = roots();
    for (let i = 0; i < 30; i++) {
      const day = `2026-11-${String(1 + i).padStart(2, "0")}`;
      const turns: [string, string][] = [[`common word ${i}`, i % 3 ? "common again" : "other"]];
      await writeChat(logs, `m-${String(i).padStart(2, "0")}`, "/a", turns, { day, compress: false });
    }
    await refreshIndex(state, logs, { compress: false });
    const walked = await searchChats(state, logs, { query: "common", chats: 10, walkFrom: 5 });
    const collected = await searchChats(state, logs, {
      query: "common",
      chats: 10,
      walkFrom: Number.POSITIVE_INFINITY,
    });
    expect(walked.groups.map((g) => g.id)).toEqual(Array.from({ length: 10 }, (_, k) => `m-${29 - k}`));
    expect(walked.groups).toEqual(collected.groups);
    expect(walked).toMatchObject({ totalHits: 50, totalChats: null, moreChats: true });
    expect(collected).toMatchObject({ totalHits: 50, totalChats: 30, moreChats: true });
    expect(walked.groups[0]).toMatchObject({ id: "m-29", count: 2 });
    expect(walked.groups[0]?.hits.map((h) => h.line)).toEqual([2, 3]);
    const all = await searchChats(state, logs, { query: "common", chats: 100, walkFrom: 5 });
    expect(all).toMatchObject({ totalChats: 30, moreChats: false });
    expect(all.groups).toHaveLength(30);
  });
});

describe("background refresh", () => {
  it("leaves the event loop free while it runs", async () => {
    const { logs, state } = roots();
    for (let i = 0; i < 20; i++) await writeChat(logs, `loop-${i}`, "/a", [[`loop ${i}`, "ok"]]);
    let turns = 0;
    let running = true;
    const spin = () => {
      turns++;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    await refreshIndex(state, logs);
    running = false;
    // Other work got turns between the chats (a blocking refresh would allow at most one).
    expect(turns).toBeGreaterThanOrEqual(20);
  });

  it("reports progress and joins a running job", async () => {
    const { logs, state } = roots();
    for (let i = 0; i < 5; i++) await writeChat(logs, `bg-${i}`, "/a", [[`background ${i}`, "ok"]]);
    settleFolder(logs);
    const first = await startIndexRefresh(state, logs);
    expect(first.status.job.running).toBe(true);
    const second = await startIndexRefresh(state, logs);
    expect(second.wait).toBe(first.wait);
    const result = await first.wait;
    expect(result.added).toBe(5);
    const status = await indexStatus(state, logs);
    expect(status.job).toMatchObject({ running: false, done: 5, total: 5 });
    expect(status).toMatchObject({ chats: 5, freshness: { fresh: true, built: true } });
    expect(existsSync(status.path)).toBe(true);
  });
});

it("gives the status's folder check to `scan` when given (the server's decode worker), not this thread", async () => {
  const { logs, state } = roots();
  await writeChat(logs, "scan-1", "/a", [["scanned elsewhere", "ok"]]);
  settleFolder(logs);
  await refreshIndex(state, logs);
  // A chat added since: this thread's own scan would say the index is behind.
  await writeChat(logs, "scan-2", "/a", [["added later", "ok"]]);
  settleFolder(logs);
  let asked = 0;
  const verdict = {
    fresh: true,
    built: true,
    refreshedAt: "elsewhere",
    changed: 0,
    added: 0,
    removed: 0,
    total: 1,
    sentence: "Checked on the worker.",
  };
  const status = await indexStatus(state, logs, async () => {
    asked++;
    return verdict;
  });
  expect(asked).toBe(1);
  expect(status.freshness).toEqual(verdict);
});

// The folder names the writer uses are the reader's: keep the test honest about where chats live.
it("stores chats where the reader finds them", () => {
  expect(groupName("/a")).toBe(`--${encodeName("/a")}--`);
});
