import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createChat, settleFolder } from "../../test-support/chats/testing";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { encodeName, groupName } from "../chats";
import { handleOf, refreshIndex, type SearchResult, searchChats } from ".";

// What a search keeps between searches (the chats' order, the shown chats' rows, the shown entries' text) must
// never outlive a change of the index: a chat re-read after a search is shown as it now is at the next one.

const newRoots = tempIndexRoots("oda-search-cache-");
const run = promisify(execFile);
const BIN = resolve(import.meta.dirname, "../../bin/oda-admin");

/** Writes chat `id` (its log made anew) with one turn per text, on the given day. */
async function writeChat(logs: string, id: string, day: string, texts: string[]): Promise<void> {
  rmSync(join(logs, groupName("/w"), encodeName(id)), { recursive: true, force: true });
  const w = createChat(logs, { id, cwd: "/w", created: `${day}T09:00:00.000Z` });
  for (const [i, text] of texts.entries())
    await w.appendTurn({ user: text, assistant: "noted", ts: `${day}T09:0${i + 1}:00.000Z` });
  await w.close();
}

/** Each group as `id: title | snippet, snippet` with the matches in brackets. */
const shown = (r: SearchResult) =>
  r.groups.map(
    (g) =>
      `${g.id}: ${g.title} | ${g.hits.map((h) => `${h.line} ${h.snippet.map((p) => (p.hit ? `[${p.text}]` : p.text)).join("")}`).join(", ")}`,
  );

/**
 * The budget searched twice: the first search under an unchanged index sorts its few chats in SQLite, the
 * second reads the chats' order and keeps it.
 */
const searchedTwice = async (state: string, logs: string) => [
  shown(await searchChats(state, logs, { query: "budget" })),
  shown(await searchChats(state, logs, { query: "budget" })),
];

/**
 * What the searches show after `c-old` was rewritten: the first search after the change (sorted in SQLite) shows
 * only `c-new`, the next ones read the order and `c-old`'s row anew.
 */
async function expectAfter(state: string, logs: string): Promise<void> {
  expect(shown(await searchChats(state, logs, { query: "May" }))).toEqual([
    "c-new: the budget for May | 2 the budget for [May]",
  ]);
  expect(await searchedTwice(state, logs)).toEqual([AFTER, AFTER]);
}

/** Two chats with the budget in them; `c-old` is the older. */
async function twoChats() {
  const { logs, state } = newRoots();
  const w = createChat(logs, { id: "c-new", cwd: "/n", created: "2026-11-10T09:00:00.000Z" });
  await w.appendTurn({ user: "the budget for May", assistant: "noted", ts: "2026-11-10T09:01:00.000Z" });
  await w.close();
  await writeChat(logs, "c-old", "2026-11-01", ["where is the budget file", "and the budget notes"]);
  // Written long before (not racy): a later refresh re-reads only the chat that changed.
  settleFolder(logs);
  await refreshIndex(state, logs);
  const [first, before] = await searchedTwice(state, logs);
  expect(first).toEqual(before);
  expect(before).toEqual([
    "c-new: the budget for May | 2 the [budget] for May",
    "c-old: where is the budget file | 2 where is the [budget] file, 5 and the [budget] notes",
  ]);
  return { logs, state };
}

/** `c-old` rewritten: other text under the same entry numbers, and now the most recent chat. */
const rewrite = (logs: string) => writeChat(logs, "c-old", "2026-11-20", ["budget moved to the cellar", "budget done"]);

const AFTER = [
  "c-old: budget moved to the cellar | 2 [budget] moved to the cellar, 5 [budget] done",
  "c-new: the budget for May | 2 the [budget] for May",
];

describe("what searches keep between them", () => {
  it("is dropped when this connection re-reads a chat: its new text, title and place show at the next search", async () => {
    const { logs, state } = await twoChats();
    await rewrite(logs);
    await refreshIndex(state, logs);
    await expectAfter(state, logs);
    expect((await searchChats(state, logs, { query: "where" })).totalHits).toBe(0);
  });

  it("is dropped when another process re-reads a chat (its refresh commits on its own connection)", async () => {
    const { logs, state } = await twoChats();
    await rewrite(logs);
    const refreshed = await run(process.execPath, [BIN, "index", "refresh", "--logs", logs, "--state", state], {
      timeout: 120_000,
    });
    expect(refreshed.stdout).toMatch(/2 chats, 0 added, 1 changed/);
    await expectAfter(state, logs);
  });

  it("is not kept from inside a transaction left open on the connection, which may still be rolled back", async () => {
    const { logs, state } = await twoChats();
    const { db } = handleOf(state, logs);
    db.exec("BEGIN IMMEDIATE");
    db.prepare("UPDATE chats SET title = 'a draft title' WHERE id = 'c-new'").run();
    expect((await searchChats(state, logs, { query: "May" })).groups[0]?.title).toBe("a draft title");
    db.exec("ROLLBACK");
    expect((await searchChats(state, logs, { query: "May" })).groups[0]?.title).toBe("the budget for May");
  });
});
