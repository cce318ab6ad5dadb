import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { createChat } from "../../test-support/chats/testing";
import { indexChat, seekLine } from ".";

const T = "2026-11-29T18:";
/** 40 answers of this size put about 12 MiB in the log: several seek points (one per MiB) to read back across. */
const PAD = "pad ".repeat(75_000);

/** 40 saves of a plain log (seek points wherever a MiB has passed): a user line, an answer, a tool error every 7th. */
async function longChat(dir: string) {
  const w = createChat(dir, { id: "s1", cwd: "/home/ana", created: `${T}00:00.000Z` }, { compress: false });
  for (let i = 0; i < 40; i++) {
    const events: Record<string, unknown>[] = [
      { type: "message", ts: `${T}00:01.000Z`, role: "user", content: [{ type: "text", text: `question ${i}` }] },
      {
        type: "message",
        ts: `${T}00:02.000Z`,
        role: "assistant",
        content: [{ type: "text", text: i % 10 === 3 ? "needle here" : `answer ${i} ${PAD}` }],
      },
    ];
    if (i % 7 === 0)
      events.push({
        type: "message",
        ts: `${T}00:03.000Z`,
        role: "user",
        content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "boom", is_error: true }],
      });
    await w.appendEvents(events);
  }
  await w.close();
}

describe("seekLine: the viewer's next and previous match, problem and user message", () => {
  it("finds the nearest line either way across the log's frames, never the line it starts from", async () => {
    const dir = tempDir();
    await longChat(dir);
    expect((await indexChat(dir, "s1", { compress: false })).points.length).toBeGreaterThan(5);
    const n = async (seek: Parameters<typeof seekLine>[2], from: number, forward: boolean) =>
      (await seekLine(dir, "s1", seek, { from, forward, compress: false }))?.n ?? null;
    // Line 1 is the header; save i starts at line 2 + 2i + (errors before it).
    const text = { kind: "text", query: "NEEDLE" } as const;
    const hits: number[] = [];
    for (let at = 0; ; ) {
      const next = await n(text, at, true);
      if (next === null) break;
      hits.push(next);
      at = next;
    }
    expect(hits.length).toBe(4);
    expect(await n(text, hits[3] as number, false)).toBe(hits[2]);
    expect(await n(text, hits[2] as number, false)).toBe(hits[1]);
    expect(await n(text, hits[0] as number, false)).toBeNull();
    expect(await n(text, 100_000, false)).toBe(hits[3]);

    const problems: number[] = [];
    for (let at = 100_000; ; ) {
      const prev = await n({ kind: "problem" }, at, false);
      if (prev === null) break;
      problems.push(prev);
      at = prev;
    }
    expect(problems.length).toBe(6); // saves 0, 7, 14, 21, 28, 35
    expect(problems).toEqual([...problems].sort((a, b) => b - a));

    // A tool result is the user's role but not the user's words: `]` and `[` step over it to the questions.
    const lastProblem = problems[0] as number;
    expect(await n({ kind: "user" }, lastProblem, false)).toBe(lastProblem - 2);
    expect(await n({ kind: "user" }, lastProblem - 2, true)).toBe(lastProblem + 1);
    expect(await n({ kind: "user" }, 1, false)).toBeNull();
  });
});
