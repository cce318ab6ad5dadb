import { appendFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createChat, settleFolder } from "../../test-support/chats/testing";
import { tempIndexRoots, whileLockHeld } from "../../test-support/search-index/test-roots";
import { listAllChats } from "../chats";
import { checkIndexFreshness, countProblemChats, refreshIndex } from ".";

const roots = tempIndexRoots("oda-index-count-");

async function writeChat(logs: string, id: string, compress = true) {
  const w = createChat(logs, { id, cwd: "/srv/a", created: "2026-11-20T09:00:00.000Z" }, { compress });
  await w.appendTurn({ user: `Question of ${id}`, assistant: "Answer", ts: "2026-11-20T09:01:00.000Z" });
  await w.close();
  return w;
}

/** What the folder listing says, chat by chat: the number the index must give. */
async function listedCount(logs: string, compress: boolean): Promise<number> {
  return (await listAllChats(logs, { compress })).chats.filter((c) => c.problems.length > 0).length;
}

describe("counting the chats with problems from the index", () => {
  it("counts as the folder listing does, and says the index is behind after a chat or the form changed", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "c-1");
    await writeChat(logs, "c-2");
    const plain = await writeChat(logs, "c-plain", false);
    expect(await countProblemChats(state, logs)).toMatchObject({ built: false });
    // Written long before each refresh (settleFolder): no file is racy, so a refresh leaves the index up to date.
    settleFolder(logs);
    await refreshIndex(state, logs, { compress: true });
    const first = await countProblemChats(state, logs, { compress: true });
    // The plain log is refused under compressed logs: one chat with problems.
    expect(first).toMatchObject({ built: true, count: 1, freshness: { fresh: true } });
    expect(first.count).toBe(await listedCount(logs, true));

    // The folder's form changed: every count so far judged the other form.
    const otherForm = await countProblemChats(state, logs, { compress: false });
    expect(otherForm.freshness.fresh).toBe(false);
    await refreshIndex(state, logs, { compress: false });
    const plainForm = await countProblemChats(state, logs, { compress: false });
    expect(plainForm).toMatchObject({ count: 2, freshness: { fresh: true } });
    expect(plainForm.count).toBe(await listedCount(logs, false));

    // A chat's log changed (a line that is no JSON): behind until refreshed, then counted.
    appendFileSync(plain.logPath, "not json\n");
    expect((await countProblemChats(state, logs, { compress: false })).freshness.fresh).toBe(false);
    settleFolder(plain.dir);
    await refreshIndex(state, logs, { compress: false });
    const changed = await countProblemChats(state, logs, { compress: false });
    expect(changed).toMatchObject({ count: await listedCount(logs, false), freshness: { fresh: true } });
  });

  it("judges a lock again: a holder that died after indexing makes a chat with problems, with no refresh", async () => {
    const { logs, state } = roots();
    const w = await writeChat(logs, "c-held");
    // A copy of Oda holds the chat, then dies without its lock file changing.
    await whileLockHeld(w.dir, async () => {
      settleFolder(w.dir);
      await refreshIndex(state, logs);
      expect(await countProblemChats(state, logs)).toMatchObject({ count: 0, freshness: { fresh: true } });
    });
    expect(await countProblemChats(state, logs)).toMatchObject({ count: 1, freshness: { fresh: true } });
    expect(await listedCount(logs, true)).toBe(1);
  });
});

describe("the problem count with the folder check run elsewhere (the server's decode worker)", () => {
  it("takes that check's verdict on the folder", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "c-1");
    settleFolder(logs);
    await refreshIndex(state, logs, { compress: true });
    let checks = 0;
    // A chat arrives while the count is taken; the check elsewhere sees it.
    const check = async () => {
      checks++;
      await writeChat(logs, "c-new");
      return checkIndexFreshness(state, logs);
    };
    const counted = await countProblemChats(state, logs, { compress: true, check });
    expect(checks).toBe(1);
    expect(counted).toMatchObject({ built: true, count: 0, freshness: { fresh: false } });
    expect(counted.freshness.sentence).toMatch(/^The search index is behind the log folder: 1 chat new since/);
  });

  it("does not take a count as current when the index was refreshed between the count and the check", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "c-1");
    settleFolder(logs);
    await refreshIndex(state, logs, { compress: true });
    // A plain log under compressed logs: a chat with a problem, once indexed. Not racy: the check's refresh
    // leaves the index up to date, so only the count's age makes the answer not fresh.
    settleFolder((await writeChat(logs, "c-plain", false)).dir);
    const check = async () => {
      await refreshIndex(state, logs, { compress: true });
      return checkIndexFreshness(state, logs);
    };
    // The check sees an index that is up to date, but the count was read before that refresh: 0, not 1.
    const counted = await countProblemChats(state, logs, { compress: true, check });
    expect(counted.count).toBe(0);
    expect(counted.freshness.fresh).toBe(false);
    expect(
      (await countProblemChats(state, logs, { compress: true, check: () => checkIndexFreshness(state, logs) })).count,
    ).toBe(1);
  });
});
