import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createChat, openChat, settleFolder } from "../../test-support/chats/testing";
import { tempIndexRoots, whileLockHeld } from "../../test-support/search-index/test-roots";
import { listAllChats } from "../chats";
import { readProcessStartTime } from "../fs";
import { handleOf, listChatsFromIndex, refreshIndex } from ".";

const roots = tempIndexRoots("oda-index-list-");

async function writeChat(logs: string, id: string, options: { compress?: boolean } = {}) {
  const w = createChat(logs, { id, cwd: "/srv/a", created: "2026-11-20T09:00:00.000Z" }, options);
  await w.appendTurn({ user: `Question of ${id}`, assistant: "Answer", ts: "2026-11-20T09:01:00.000Z" });
  await w.close();
  return w;
}

describe("the chat list from the index", () => {
  it("judges a lock again: a holder that died after indexing is a stale-lock problem, as the folder listing says", async () => {
    const { logs, state } = roots();
    const w = await writeChat(logs, "c-held");
    // A live process holds the chat (as a copy of Oda would), then dies without its lock file changing.
    await whileLockHeld(w.dir, async () => {
      // Written long before (not racy): fresh once refreshed.
      settleFolder(w.dir);
      await refreshIndex(state, logs);
      const before = await listChatsFromIndex(state, logs);
      expect(before.freshness.fresh).toBe(true);
      expect(before.chats[0]?.lock.state).toBe("live");
      expect(before.chats[0]?.problems).toEqual([]);
    });
    const after = await listChatsFromIndex(state, logs);
    // No file changed: the index is still fresh, but the lock is judged now.
    expect(after.freshness.fresh).toBe(true);
    const chat = after.chats[0];
    expect(chat?.lock.state).toBe("stale");
    const direct = (await listAllChats(logs)).chats[0];
    expect(direct?.problems.map((p) => p.kind)).toEqual(["lock"]);
    expect(chat?.problems).toEqual(direct?.problems);
    expect(chat?.problems[0]?.message).toMatch(
      /^The session\.lock is stale \(held by process \d+ on .*\): Process \d+/,
    );
  });

  it("drops a stale-lock problem stored at index time once the lock's holder is judged alive again", async () => {
    const { logs, state } = roots();
    const w = await writeChat(logs, "c-lock");
    // A lock naming this very process: alive now. Stored as stale (as if judged when it was), then re-judged.
    const self = {
      pid: process.pid,
      host: hostname(),
      startedAt: (readProcessStartTime(process.pid) as Date).toISOString(),
    };
    writeFileSync(join(w.dir, "session.lock"), `${JSON.stringify(self)}\n`);
    await refreshIndex(state, logs);
    const db = handleOf(state, logs).db;
    const row = db.prepare("SELECT summary FROM chats WHERE id = 'c-lock'").pluck().get() as string;
    // The row keeps "~" and what of the summary differs from the defaults (summary-codec.ts).
    expect(row.startsWith("~")).toBe(true);
    const summary = JSON.parse(row.slice(1));
    summary.lock = { state: "stale", reason: "Old judgement." };
    summary.problems = [{ kind: "lock", path: join(w.dir, "session.lock"), message: "Old stale-lock sentence." }];
    db.prepare("UPDATE chats SET summary = ? WHERE id = 'c-lock'").run(`~${JSON.stringify(summary)}`);
    const listed = (await listChatsFromIndex(state, logs)).chats[0];
    expect(listed?.lock.state).toBe("live");
    expect(listed?.problems).toEqual([]);
  });
});

describe("freshness", () => {
  it("is lost when a log grows, a checkpoint changes, a lock appears or a folder name stops decoding", async () => {
    const { logs, state } = roots();
    const w = await writeChat(logs, "c-one");
    await writeChat(logs, "c-two");
    const fresh = async () => (await listChatsFromIndex(state, logs)).freshness;
    // Each change below is dated back before the refresh that follows it (settleFolder): a file changed
    // within 2 s of a refresh is racy, and the index is not up to date until it is verified again.
    settleFolder(logs);
    await refreshIndex(state, logs);
    expect(await fresh()).toMatchObject({ fresh: true, sentence: "The search index is up to date (2 chats)." });

    // A save appended to the log (the checkpoint left behind).
    const more = await openChat(logs, "c-one");
    await more.appendEvents([{ type: "title", ts: "2026-11-20T09:05:00.000Z", title: "Later title" }]);
    more.releaseLock();
    expect(await fresh()).toMatchObject({ fresh: false, changed: 1 });
    settleFolder(w.dir);
    await refreshIndex(state, logs);
    expect((await fresh()).fresh).toBe(true);

    // The checkpoint rewritten (here by hand: a new title of another length).
    const cachePath = join(w.dir, "session.cache.json");
    const checkpoint = JSON.parse(readFileSync(cachePath, "utf8"));
    checkpoint.details.title = "A checkpoint title edited elsewhere";
    writeFileSync(cachePath, JSON.stringify(checkpoint));
    expect(await fresh()).toMatchObject({ fresh: false, changed: 1 });
    settleFolder(w.dir);
    await refreshIndex(state, logs);
    expect((await fresh()).fresh).toBe(true);

    // A lock file created.
    writeFileSync(join(w.dir, "session.lock"), `${JSON.stringify({ pid: 1, host: "elsewhere", startedAt: "x" })}\n`);
    expect(await fresh()).toMatchObject({ fresh: false, changed: 1 });
    settleFolder(w.dir);
    await refreshIndex(state, logs);
    expect((await fresh()).fresh).toBe(true);

    // A folder whose name does not decode: no chat changed, but the list's folder problems did.
    mkdirSync(join(logs, "not-a-group"));
    const stale = await fresh();
    expect(stale).toMatchObject({ fresh: false, changed: 0, added: 0, removed: 0 });
    expect(stale.sentence).toMatch(/the folder's own problems changed/);
    await refreshIndex(state, logs);
    const listed = await listChatsFromIndex(state, logs);
    expect(listed.freshness.fresh).toBe(true);
    expect(listed.problems.map((p) => p.kind)).toEqual(["name"]);
  });

  it("is lost when the folder's form changes, and the next refresh judges every log against the new form", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "c-zstd");
    settleFolder(logs);
    await refreshIndex(state, logs, { compress: true });
    expect((await listChatsFromIndex(state, logs, { compress: true })).freshness.fresh).toBe(true);
    const other = await listChatsFromIndex(state, logs, { compress: false });
    expect(other.freshness).toMatchObject({ fresh: false });
    expect(other.freshness.sentence).toBe(
      "The search index is behind the log folder: it was refreshed for zstd-compressed logs, and the folder now keeps plain logs.",
    );
    await refreshIndex(state, logs, { compress: false });
    const listed = await listChatsFromIndex(state, logs, { compress: false });
    expect(listed.freshness.fresh).toBe(true);
    const direct = (await listAllChats(logs, { compress: false })).chats[0];
    expect(listed.chats[0]?.problems).toEqual(direct?.problems);
    expect(listed.chats[0]?.problems.map((p) => p.kind)).toEqual(["form"]);
  });

  it("an unfinished line appended is a change too", async () => {
    const { logs, state } = roots();
    const w = await writeChat(logs, "c-plain", { compress: false });
    await refreshIndex(state, logs, { compress: false });
    appendFileSync(w.logPath, '{"type":"message"');
    expect((await listChatsFromIndex(state, logs, { compress: false })).freshness).toMatchObject({
      fresh: false,
      changed: 1,
    });
  });
});
