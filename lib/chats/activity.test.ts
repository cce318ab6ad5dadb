import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { createChat } from "../../test-support/chats/testing";
import { ActivityBucketer, type ActivityItem, type ActivityStrip, filterLines, lineActivity, lineTime } from ".";
import { chatActivity } from "./activity";
import { parseLine } from "./lines";

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Feeds raw lines (numbered from 1) to a bucketer, as the worker does. */
function strip(lines: string[], max?: number): ActivityStrip {
  const b = new ActivityBucketer(max);
  lines.forEach((raw, i) => {
    const line = parseLine(i + 1, 0, Buffer.from(raw));
    b.add(i + 1, lineTime(line.json), lineActivity(line));
  });
  return b.result();
}

const msg = (ts: string, role = "user", extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "message", ts, role, content: [{ type: "text", text: "hi" }], ...extra });

/** What the non-empty intervals hold, by UTC start: [messages, tokens, problems, lines, first line]. */
const filled = (s: ActivityStrip) =>
  Object.fromEntries(
    s.buckets
      .filter((b) => b.lines > 0)
      .map((b) => [new Date(b.start).toISOString(), [b.messages, b.tokens, b.problems, b.lines, b.firstLine]]),
  );

describe("the activity strip's intervals", () => {
  it("are spans of UTC time: Berlin's repeated hour (02:00–03:00 twice on 2026-10-25) gives two intervals, not one", () => {
    const s = strip([
      msg("2026-10-25T00:30:00+02:00"), // 22:30Z on the 24th
      msg("2026-10-25T02:30:00+02:00", "assistant", { usage: { input_tokens: 5, output_tokens: 2 } }), // 00:30Z
      msg("2026-10-25T02:30:00+01:00", "assistant", { usage: { input_tokens: 7, output_tokens: 1 } }), // 01:30Z
      msg("2026-10-25T03:30:00+01:00"), // 02:30Z
    ]);
    // Four hours: 240 one-minute intervals would be too many, 48 of five minutes fit.
    expect(s.width).toBe(5 * MIN);
    expect(s.buckets).toHaveLength(49);
    // Every interval follows the one before by exactly its width, across the change.
    for (const [i, b] of s.buckets.entries()) expect(b.start).toBe(Date.parse("2026-10-24T22:30:00Z") + i * s.width);
    expect(filled(s)).toEqual({
      "2026-10-24T22:30:00.000Z": [1, 0, 0, 1, 1],
      "2026-10-25T00:30:00.000Z": [1, 7, 0, 1, 2],
      "2026-10-25T01:30:00.000Z": [1, 8, 0, 1, 3],
      "2026-10-25T02:30:00.000Z": [1, 0, 0, 1, 4],
    });
  });

  it("place a line without a time at the time of the line before it, and count lines before any time apart", () => {
    const s = strip([
      "not json at all", // 1: before any time
      JSON.stringify({ type: "session", id: "x" }), // 2: no time either
      msg("2026-11-29T18:00:10Z"), // 3
      "{broken", // 4: a problem line, at 18:00
      JSON.stringify({ type: "turn_end" }), // 5: at 18:00 too
      msg("2026-11-29T18:07:00Z", "user", {
        content: [{ type: "tool_result", tool_use_id: "a", content: "x", is_error: true }],
      }), // 6: a tool error
      JSON.stringify({ time: "2026-11-29T18:08:00Z", role: "assistant", text: "format 1" }), // 7
      msg("not a time"), // 8: a time that does not parse: at 18:08
    ]);
    expect(s.width).toBe(MIN);
    expect(s.before).toEqual({ lines: 2, messages: 0, tokens: 0, problems: 1 });
    expect(s.untimed).toBe(5);
    expect(s.lines).toBe(8);
    expect(filled(s)).toEqual({
      "2026-11-29T18:00:00.000Z": [1, 0, 1, 3, 3],
      "2026-11-29T18:07:00.000Z": [1, 0, 1, 1, 6],
      "2026-11-29T18:08:00.000Z": [2, 0, 0, 2, 7],
    });
    expect(s.buckets).toHaveLength(9);
  });

  it("widen as the log's span grows, never holding more than their limit, and keep every count", () => {
    const lines: string[] = [];
    // The span grows line by line, so the intervals are widened and merged again and again; each pair of lines
    // is out of order (a later line with an earlier time).
    for (let i = 0; i < 500; i++) {
      const t = Date.parse("2026-01-01T00:00:00Z") + (i ^ 1) * 37 * MIN;
      lines.push(
        i % 10 === 9
          ? "oops"
          : msg(new Date(t).toISOString(), "assistant", { usage: { input_tokens: i, output_tokens: 1 } }),
      );
    }
    const s = strip(lines, 20);
    expect(s.buckets.length).toBeLessThanOrEqual(20);
    expect(s.buckets.length).toBeGreaterThan(10);
    const sum = (k: "messages" | "tokens" | "problems" | "lines") => s.buckets.reduce((t, b) => t + b[k], 0);
    expect(sum("lines")).toBe(500);
    expect(sum("messages")).toBe(450);
    expect(sum("problems")).toBe(50);
    expect(sum("tokens")).toBe(lines.reduce((t, _l, i) => t + (i % 10 === 9 ? 0 : i + 1), 0));
    // The first line of each interval is the smallest line number that fell in it.
    expect(s.buckets.find((b) => b.lines > 0 && b.start <= Date.parse("2026-01-01T00:00:00Z"))?.firstLine).toBe(1);
    // Widths are whole hours or days here, and intervals start on whole multiples of them (UTC).
    expect(s.width % HOUR).toBe(0);
    for (const b of s.buckets) expect(b.start % s.width).toBe(0);
  });
});

describe("chatActivity: one streamed pass over a real log", () => {
  it("reads a zstd log, serves it again unchanged, reads it again after an append; the time filter lists the same lines", async () => {
    const dir = tempDir();
    const w = createChat(dir, { id: "act", cwd: null, created: "2026-11-29T18:00:00.000Z" });
    await w.appendEvents([
      { type: "message", ts: "2026-11-29T18:00:05.000Z", role: "user", content: "one" }, // 2
      {
        type: "message",
        ts: "2026-11-29T18:01:05.000Z",
        role: "assistant",
        content: "two",
        usage: { input_tokens: 3, output_tokens: 4 },
      }, // 3
    ]);
    await w.writeSave(await w.encodeSave(["not json"]), null); // 4, at 18:01
    await w.appendEvents([{ type: "message", ts: "2026-11-29T18:03:00.000Z", role: "user", content: "three" }]); // 5
    const all = async () => {
      const items: ActivityItem[] = [];
      for await (const item of chatActivity(dir, "act")) items.push(item);
      return items;
    };
    const first = await all();
    const last = first.at(-1);
    expect(last?.type).toBe("strip");
    const s = (last as Extract<ActivityItem, { type: "strip" }>).strip;
    // The header (line 1) has no time of its own: it is before any time.
    expect(s.before.lines).toBe(1);
    expect(filled(s)).toEqual({
      "2026-11-29T18:00:00.000Z": [1, 0, 0, 1, 2],
      "2026-11-29T18:01:00.000Z": [1, 7, 1, 2, 3],
      "2026-11-29T18:03:00.000Z": [1, 0, 0, 1, 5],
    });
    expect(await all()).toEqual(first);
    await w.appendEvents([{ type: "message", ts: "2026-11-29T18:09:00.000Z", role: "user", content: "four" }]);
    const again = (await all()).at(-1) as Extract<ActivityItem, { type: "strip" }>;
    expect(again.strip.buckets).toHaveLength(10);
    await w.close();

    // Dragging over 18:01–18:03 filters to the lines the strip put there: 3 and 4 (the bad line, at 18:01).
    const page = await filterLines(
      dir,
      "act",
      { after: Date.parse("2026-11-29T18:01:00Z"), before: Date.parse("2026-11-29T18:03:00Z") },
      { from: 1, count: 100, context: 0 },
    );
    expect(page.lines.map((l) => l.line.n)).toEqual([3, 4]);
    expect(page.lines[0]?.hiddenBefore).toBe(2);
    expect(page.hiddenAfter).toBe(2);
  });
});
