import { describe, expect, it } from "vitest";
import { createChat, settleFolder } from "../../test-support/chats/testing";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { openIndex, refreshIndex } from ".";
import { indexGlance } from "./list-groups";

const roots = tempIndexRoots("oda-index-glance-");

describe("Home's glance and the chat list's groups from the index", () => {
  it("read no chat's row: each query of the glance is answered from an index", async () => {
    const { logs, state } = roots();
    for (const [id, cwd] of [
      ["c-1", "/srv/a"],
      ["c-2", "/srv/a"],
      ["c-3", "/srv/b"],
    ] as const) {
      const w = createChat(logs, { id, cwd, created: "2026-11-20T09:00:00.000Z" }, { compress: true });
      await w.appendTurn({ user: `Question of ${id}`, assistant: "Answer", ts: "2026-11-20T09:01:00.000Z" });
      await w.close();
    }
    settleFolder(logs);
    await refreshIndex(state, logs);
    const handle = openIndex(state, logs);
    // The glance's own queries, as it prepares them.
    const asked: string[] = [];
    const prepare = handle.db.prepare.bind(handle.db);
    handle.db.prepare = ((sql: string) => {
      asked.push(sql);
      return prepare(sql);
    }) as typeof handle.db.prepare;
    let glance: ReturnType<typeof indexGlance>;
    try {
      glance = indexGlance(handle);
    } finally {
      handle.db.prepare = prepare;
    }
    expect(glance).toMatchObject({ built: true, chats: 3, groups: 2, problemChats: 0 });
    const overChats = asked.filter((sql) => /\bFROM chats\b/.test(sql));
    expect(overChats.length).toBeGreaterThanOrEqual(3);
    for (const sql of overChats) {
      const plan = (handle.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((p) => p.detail);
      // A pass over the table reads every chat's summary (a second and more at 100,000 chats, each Home load).
      expect(
        plan.filter((d) => d.startsWith("SCAN chats") && !d.includes("COVERING INDEX")),
        sql,
      ).toEqual([]);
    }
  });
});
