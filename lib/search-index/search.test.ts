import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createChat } from "../../test-support/chats/testing";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { isOdaError } from "../errors";
import { refreshIndex, type SearchResult, searchChats } from ".";
import { TOKENIZER } from "./schema";

const newRoots = tempIndexRoots("oda-search-");

/** A log folder with one chat whose user messages are `texts`, indexed. */
async function indexed(texts: string[]) {
  const { logs, state } = newRoots();
  const w = createChat(logs, { id: "c-varied", cwd: "/w", created: "2026-11-20T09:00:00.000Z" });
  for (const [i, text] of texts.entries())
    await w.appendTurn({ user: text, assistant: "ok", ts: `2026-11-20T09:${String(i).padStart(2, "0")}:00.000Z` });
  await w.close();
  await refreshIndex(state, logs);
  return { logs, state };
}

const marked = (r: SearchResult) =>
  r.groups.flatMap((g) => g.hits.map((h) => h.snippet.map((p) => (p.hit ? `[${p.text}]` : p.text)).join("")));

const LONG = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
const TEXTS = [
  "Where is the quarterly budget? The budget is in reports/q3.xlsx, next to the budget notes.",
  `${LONG} budget ${LONG}`,
  "Café receipts: crème brûlée at the café, 4 €, paid by card ✓",
  "Deploy done 🎉 — the staging server is up; 🎉🎉 for the team",
  "multi\nline\ntext with the budget\n\nand code: `const budget = 4;` // budget",
  "東京の予算 budget 報告書 and Ελληνικά words",
  "prefix matching: deployment deploys deployed redeploy",
  "NEAR test: alpha beta gamma delta alpha epsilon beta",
];

/**
 * What the index gave before its text left the FTS table: FTS5's snippet() over
 * a table that stores the text, with the same tokenizer and arguments.
 */
function storedSnippets(query: string): string[] {
  const db = new Database(":memory:");
  db.exec(
    `CREATE VIRTUAL TABLE lines_fts USING fts5(text, cid UNINDEXED, line UNINDEXED, role UNINDEXED, ts UNINDEXED, tokenize="${TOKENIZER}")`,
  );
  const insert = db.prepare("INSERT INTO lines_fts (rowid, text) VALUES (?, ?)");
  TEXTS.forEach((t, i) => {
    insert.run(i + 1, t);
  });
  const rows = db
    .prepare(
      "SELECT snippet(lines_fts, 0, '[', ']', '…', 24) AS s FROM lines_fts WHERE lines_fts MATCH ? ORDER BY rowid",
    )
    .pluck()
    .all(query) as string[];
  db.close();
  return rows;
}

describe("snippets", () => {
  it("are the ones FTS5 cuts from stored text, on varied text and queries", async () => {
    const { logs, state } = await indexed(TEXTS);
    const queries = [
      "budget",
      '"quarterly budget"',
      "deploy*",
      "cafe",
      "🎉",
      "✓",
      "alpha NOT zeta",
      "budget OR café",
      "NEAR(alpha beta, 2)",
      "word40",
      "東京の予算",
      "ελληνικά",
    ];
    for (const query of queries) {
      const found = await searchChats(state, logs, { query, perChat: 100 });
      const expected = storedSnippets(query);
      expect(expected.length, query).toBeGreaterThan(0);
      expect(marked(found), query).toEqual(expected);
    }
  });
});

describe("words", () => {
  it("finds an emoji and other symbols as words, with the symbol marked", async () => {
    const { logs, state } = await indexed(["Deploy done 🎉 at last", "Checked ✓ and signed ©", "nothing here"]);
    const party = await searchChats(state, logs, { query: "🎉" });
    expect(party.totalHits).toBe(1);
    expect(party.groups[0]?.hits[0]?.snippet.filter((p) => p.hit).map((p) => p.text)).toEqual(["🎉"]);
    expect((await searchChats(state, logs, { query: "✓" })).totalHits).toBe(1);
    expect((await searchChats(state, logs, { query: "©" })).totalHits).toBe(1);
    // Punctuation still separates words.
    expect((await searchChats(state, logs, { query: "done" })).totalHits).toBe(1);
  });

  it("refuses a query over 1,000 characters in the app's words, and searches one of 1,000", async () => {
    const { logs, state } = await indexed(["short text"]);
    let refusal: unknown = null;
    try {
      await searchChats(state, logs, { query: "a".repeat(1001) });
    } catch (error) {
      refusal = error;
    }
    expect(isOdaError(refusal) && refusal.code).toBe("bad_input");
    expect((refusal as Error).message).toBe(
      "A search can be at most 1,000 characters long; this one has 1,001. Search for a shorter part of the text.",
    );
    // Characters, not UTF-16 units: 1,000 emoji are 1,000 characters.
    expect((await searchChats(state, logs, { query: "🎉".repeat(1000) })).totalHits).toBe(0);
  });
});

describe("a word in most chats, narrowed to a working folder", () => {
  it("probes only that folder's chats, newest first, and agrees with collecting every hit", async () => {
    const { logs, state } = newRoots();
    for (let i = 0; i < 12; i++) {
      const day = `2026-11-${String(1 + i).padStart(2, "0")}`;
      const w = createChat(logs, { id: `w-${i}`, cwd: i % 2 ? "/odd" : "/even", created: `${day}T09:00:00.000Z` });
      await w.appendTurn({ user: `common ${i}`, assistant: "common too", ts: `${day}T09:01:00.000Z` });
      await w.close();
    }
    await refreshIndex(state, logs);
    const walked = await searchChats(state, logs, { query: "common", cwd: "/odd", chats: 3, walkFrom: 2 });
    const collected = await searchChats(state, logs, { query: "common", cwd: "/odd", chats: 3, walkFrom: Infinity });
    expect(walked.groups.map((g) => g.id)).toEqual(["w-11", "w-9", "w-7"]);
    expect(walked.groups).toEqual(collected.groups);
    expect(walked).toMatchObject({ totalHits: 12, moreHits: false, totalChats: null, moreChats: true });
    expect(collected).toMatchObject({ totalHits: 12, totalChats: 6, moreChats: true });
  });

  it("counts past the first matches up to the cap, and fetches every hit again when collecting past it", async () => {
    const { logs, state } = newRoots();
    const many = createChat(logs, { id: "many", cwd: "/w", created: "2026-11-01T09:00:00.000Z" });
    const line = (i: number) => ({
      type: "message",
      ts: `2026-11-01T09:00:${String(i % 60).padStart(2, "0")}.000Z`,
      role: "user",
      content: [{ type: "text", text: `common ${i}` }],
    });
    await many.appendEvents(Array.from({ length: 10_001 }, (_, i) => line(i)));
    await many.close();
    const one = createChat(logs, { id: "one", cwd: "/w", created: "2026-11-02T09:00:00.000Z" });
    await one.appendTurn({ user: "common once", assistant: "ok", ts: "2026-11-02T09:01:00.000Z" });
    await one.close();
    await refreshIndex(state, logs);
    // 10,002 matches: the first 5,001 fetched, the rest counted up to the cap, then the chats probed.
    const walked = await searchChats(state, logs, { query: "common" });
    // Collecting: the first 10,001 fetched, more than the cap, so every hit is fetched again and counted.
    const collected = await searchChats(state, logs, { query: "common", walkFrom: Infinity });
    const flags = (r: SearchResult) => [r.totalHits, r.moreHits, r.totalChats, r.moreChats, r.truncated];
    expect(flags(walked)).toEqual([10_000, true, 2, false, false]);
    expect(flags(collected)).toEqual([10_002, false, 2, false, false]);
    expect(walked.groups.map((g) => [g.id, g.count, g.hits.map((h) => h.line)])).toEqual([
      ["one", 1, [2]],
      ["many", 10_001, [2, 3, 4]],
    ]);
    expect(walked.groups).toEqual(collected.groups);
  });
});

describe("the statements a search runs on the FTS index", () => {
  it("are reported as run, so another connection can run them again and find the same matches", async () => {
    const { logs, state } = newRoots();
    for (let i = 0; i < 6; i++) {
      const w = createChat(logs, { id: `t-${i}`, cwd: "/w", created: "2026-11-20T09:00:00.000Z" });
      await w.appendTurn({ user: `common ${i}`, assistant: "common again", ts: "2026-11-20T09:01:00.000Z" });
      await w.close();
    }
    await refreshIndex(state, logs);
    for (const walkFrom of [Infinity, 2]) {
      const traced: { sql: string; params: Record<string, unknown>; rows: "all" | "get" }[] = [];
      const result = await searchChats(state, logs, {
        query: "common",
        walkFrom,
        chats: 2,
        onFtsQuery: (sql, params, rows) => traced.push({ sql, params, rows }),
      });
      expect(traced.length).toBeGreaterThan(0);
      expect(traced.every((t) => t.sql.includes("lines_fts MATCH @q"))).toBe(true);
      const db = new Database(join(state, "index.sqlite"), { readonly: true });
      const again = traced.map((t) => {
        const s = db.prepare(t.sql).pluck();
        return t.rows === "all" ? s.all(t.params) : s.get(t.params);
      });
      db.close();
      expect(result.totalHits).toBe(12);
      if (walkFrom === Infinity) {
        // The capped fetch of every match: 12 entries, two per chat.
        expect(traced).toHaveLength(1);
        expect(again[0]).toHaveLength(12);
      } else {
        // The first matches up to one past where walking starts, then the rest counted after the last of them.
        expect(again[0]).toHaveLength(3);
        expect(again[1]).toBe(9);
        // Walking: each shown chat's probe (its first hits) and its count, newest first.
        expect(again.slice(2).filter((r) => typeof r === "number")).toEqual([2, 2]);
      }
    }
  });
});
