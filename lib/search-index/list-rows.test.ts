import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createChat } from "../../test-support/chats/testing";
import { tempFolder } from "../../test-support/test-temp";
import { closeAllIndexes, handleOf, refreshIndex } from ".";
import { IndexRows } from "./list-rows";

/**
 * The chat list's first page read from the index without sorting every chat
 * is the first page of the whole sort, ties on the moment of last activity
 * included (the index orders those by insertion, the list by id).
 */

afterEach(() => closeAllIndexes());

describe("the index's first rows", () => {
  it("are the first rows of the list's order for every page size, with chats of the same moment", async () => {
    const root = tempFolder("oda-list-rows-");
    const logs = join(root, "logs");
    const state = join(root, "state");
    const same = "2026-11-29T18:00:00.000Z";
    const chats: [string, string][] = [
      ["c-e", same],
      ["c-a", same],
      ["c-new", "2026-11-29T19:00:00.000Z"],
      ["c-d", same],
      ["c-old", "2026-11-29T17:00:00.000Z"],
      ["c-b", same],
    ];
    for (const [id, ts] of chats) {
      const w = createChat(logs, { id, cwd: "/home/ana", created: "2026-11-29T10:00:00.000Z" });
      await w.appendTurn({ user: `question of ${id}`, assistant: "answer", ts });
      await w.close();
    }
    await refreshIndex(state, logs, { compress: true });
    const db = handleOf(state, logs).db;
    const all = (db.prepare("SELECT id FROM chats ORDER BY last_activity DESC, id").all() as { id: string }[]).map(
      (r) => r.id,
    );
    expect(all).toEqual(["c-new", "c-a", "c-b", "c-d", "c-e", "c-old"]);
    for (let n = 1; n <= all.length + 1; n++) {
      const rows = new IndexRows(db, n);
      expect(rows.count).toBe(all.length);
      expect(rows.at(0, n).map((r) => r.id)).toEqual(all.slice(0, n));
      expect(rows.at(0, all.length).map((r) => r.id)).toEqual(all);
    }
  });
});
