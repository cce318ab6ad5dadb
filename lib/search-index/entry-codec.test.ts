import { describe, expect, it } from "vitest";
import { createChat } from "../../test-support/chats/testing";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { handleOf, refreshIndex, searchChats } from ".";

const roots = tempIndexRoots("oda-index-entries-");

/** Times a log may hold: the writer's own, and others the view must give back as written. */
const TIMES = [
  "2026-11-20T09:01:00.000Z",
  "1970-01-01T00:00:00.000Z",
  "2026-11-20T09:01:00.123Z",
  "2026-11-20T09:01:00Z",
  "2026-11-20T10:01:00.000+01:00",
  "2026-02-30T09:01:00.000Z",
  "1969-12-31T23:59:59.999Z",
  "1700000000",
  "yesterday",
  "",
];
const ROLES = ["user", "assistant", "system", "developer", "0", "1"];

describe("the per-entry table", () => {
  it("keeps writer times and known roles as small integers, and gives every role and time back as written", async () => {
    const { logs, state } = roots();
    const w = createChat(logs, { id: "odd", cwd: null, created: "2026-11-20T09:00:00.000Z" });
    const events = TIMES.flatMap((ts, i) => [
      { type: "message", ts, role: ROLES[i % ROLES.length], content: `needle ${i}` },
      { type: "note", time: ts, text: `needle event ${i}` },
    ]);
    await w.appendEvents([...events, { type: "message", role: "user", content: "needle untimed" }]);
    await w.close();
    await refreshIndex(state, logs, { threads: 0 });
    const db = handleOf(state, logs).db;
    const view = db.prepare("SELECT role, ts FROM lines ORDER BY id").raw().all();
    const expected = [
      ...TIMES.flatMap((ts, i) => [
        [ROLES[i % ROLES.length], ts],
        ["event", ts],
      ]),
      ["user", null],
    ];
    expect(view).toEqual(expected);
    const stored = db.prepare("SELECT typeof(r), typeof(t) FROM entries ORDER BY id").raw().all() as [string, string][];
    expect(stored.slice(0, 6)).toEqual([
      ["integer", "integer"],
      ["integer", "integer"],
      ["integer", "integer"],
      ["integer", "integer"],
      ["integer", "integer"],
      ["integer", "integer"],
    ]);
    // A role of its own and the times that would not read back the same stay text.
    expect(stored[6]).toEqual(["text", "text"]);
    expect(stored.slice(7).every(([, t]) => t === "text" || t === "null")).toBe(true);
    // The filters compare the times as written, as before; the role filter reads the role back too.
    for (const since of ["2026-11-20T09:01:00.100Z", "2026", "1970-01-01T00:00:00.000Z"]) {
      const matching = TIMES.filter((ts) => ts >= since).length * 2;
      expect((await searchChats(state, logs, { query: "needle", since })).totalHits).toBe(matching);
    }
    expect((await searchChats(state, logs, { query: "needle", until: "2026-11-20T09:01:00.000Z" })).totalHits).toBe(
      TIMES.filter((ts) => ts <= "2026-11-20T09:01:00.000Z").length * 2,
    );
    expect((await searchChats(state, logs, { query: "needle", role: "assistant" })).totalHits).toBe(2);
    expect((await searchChats(state, logs, { query: "needle", role: "event" })).totalHits).toBe(TIMES.length);
  });
});
