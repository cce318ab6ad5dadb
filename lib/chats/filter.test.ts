import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { createChat } from "../../test-support/chats/testing";
import { filterLines, toolCounts } from ".";

const T = "2026-11-29T18:00:";
const text = (role: string, words: string, extra = {}) => ({
  type: "message",
  ts: `${T}01.000Z`,
  role,
  content: [{ type: "text", text: words }],
  ...extra,
});
const call = (id: string, name: string) => ({
  type: "message",
  ts: `${T}02.000Z`,
  role: "assistant",
  content: [{ type: "tool_use", id, name, input: { path: `${id}.md` } }],
});
const result = (id: string, error = false) => ({
  type: "message",
  ts: `${T}03.000Z`,
  role: "user",
  content: [{ type: "tool_result", tool_use_id: id, content: `result of ${id}`, is_error: error }],
});

/** Line 1 is the header; the events below are lines 2 to 13. */
async function toolChat(dir: string) {
  const w = createChat(dir, { id: "f1", cwd: null, created: `${T}00.000Z` });
  await w.appendEvents([
    text("user", "read both files"), // 2
    call("a", "read_file"), // 3
    text("assistant", "thinking", { usage: { input_tokens: 4, output_tokens: 1 } }), // 4
    call("b", "edit_file"), // 5
    result("a"), // 6
    result("b", true), // 7
    text("user", "filler one"), // 8
    text("user", "filler two"), // 9
    text("user", "filler three"), // 10
    call("c", "read_file"), // 11
    result("c"), // 12
    text("assistant", "done", { usage: { input_tokens: 9, output_tokens: 2 } }), // 13
  ]);
  await w.close();
}

const shown = (page: Awaited<ReturnType<typeof filterLines>>) =>
  page.lines.map((l) => `${l.line.n}${l.why === "match" ? "" : l.why === "result" ? "r" : "c"}+${l.hiddenBefore}`);

describe("filterLines: filters with context, tool calls paired with their results", () => {
  it("a tool filter shows each call with its result, and how many lines each gap hides", async () => {
    const dir = tempDir();
    await toolChat(dir);
    const page = await filterLines(dir, "f1", { tool: "read_file" }, { from: 1, count: 100, context: 0 });
    // Call 3 with its result 6 (two lines later), call 11 with its result 12.
    expect(shown(page)).toEqual(["3+2", "6r+2", "11+4", "12r+0"]);
    expect(page).toMatchObject({ matched: 2, next: null, hiddenAfter: 1, scannedTo: 13 });
    expect(await toolCounts(dir, "f1")).toEqual([
      ["read_file", 2],
      ["edit_file", 1],
    ]);
  });

  it("gives N lines of context around each match, counted once where they meet", async () => {
    const dir = tempDir();
    await toolChat(dir);
    const page = await filterLines(dir, "f1", { problems: true }, { from: 1, count: 100, context: 2 });
    expect(shown(page)).toEqual(["5c+4", "6c+0", "7+0", "8c+0", "9c+0"]);
    const usage = await filterLines(dir, "f1", { usage: true }, { from: 1, count: 100, context: 0 });
    expect(shown(usage)).toEqual(["4+3", "13+8"]);
    const role = await filterLines(dir, "f1", { role: "user", text: "FILLER" }, { from: 1, count: 100, context: 0 });
    expect(shown(role)).toEqual(["8+7", "9+0", "10+0"]);
  });

  it("pages: stops after `count` lines (with the result it owes) and goes on from where it stopped", async () => {
    const dir = tempDir();
    await toolChat(dir);
    const first = await filterLines(dir, "f1", { tool: "read_file" }, { from: 1, count: 1, context: 0 });
    expect(shown(first)).toEqual(["3+2", "6r+2"]);
    expect(first.next).toBe(7);
    const second = await filterLines(
      dir,
      "f1",
      { tool: "read_file" },
      { from: first.next as number, count: 1, context: 0 },
    );
    expect(shown(second)).toEqual(["11+4", "12r+0"]);
  });

  it("stops at its budget of decoded bytes and says where to go on, so no request reads a whole huge log", async () => {
    const dir = tempDir();
    const w = createChat(dir, { id: "big", cwd: null, created: `${T}00.000Z` }, { compress: false });
    for (let i = 0; i < 30; i++) await w.appendEvents([text("user", `${"x".repeat(100_000)} ${i}`)]);
    await w.appendEvents([text("user", "the needle")]);
    await w.close();
    let from = 1;
    let pages = 0;
    let found: number[] = [];
    for (;;) {
      const page = await filterLines(
        dir,
        "big",
        { text: "needle" },
        { from, count: 10, context: 0, budget: 1024 * 1024, compress: false },
      );
      pages++;
      found = found.concat(page.lines.map((l) => l.line.n));
      if (page.next === null) break;
      expect(page.next).toBeGreaterThan(from);
      from = page.next;
    }
    expect(found).toEqual([32]);
    expect(pages).toBeGreaterThan(2);
  });
});
