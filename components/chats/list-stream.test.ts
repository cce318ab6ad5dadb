import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatListBatch, ChatRow } from "@/lib/types";
import { type Chunk, FLUSH, gatherBatches, readListStream } from "./list-stream";

/** The index's 100,000 rows as the server streams them: a first batch of 200, then batches of 2,000. */
function* indexStream(total: number): Generator<Chunk | typeof FLUSH> {
  const rows = (n: number) => Array.from({ length: n }, () => ({}) as ChatRow);
  let done = 200;
  yield { rows: rows(200), problems: [], done, total, index: { fresh: false, sentence: "Checking." } };
  while (done < total) {
    const n = Math.min(2000, total - done);
    done += n;
    // Each batch slower than the page's 120 ms: a tick after every one (the worst case for renders).
    yield FLUSH;
    yield { rows: rows(n), problems: [], done, total };
  }
  yield FLUSH;
  // The folder check's verdict, seconds later.
  yield FLUSH;
  yield { rows: [], problems: [], done: total, total, update: { removed: [], replaceProblems: false } };
}

async function* slowly<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function shown(total: number): Promise<ChatListBatch[]> {
  const out: ChatListBatch[] = [];
  for await (const chunk of gatherBatches(slowly(indexStream(total)))) out.push(chunk as ChatListBatch);
  return out;
}

describe("the chat list's batches as the page shows them", () => {
  it("shows 100,000 rows in about 15 renders, not one a batch, the first and the last at once", async () => {
    const batches = await shown(100_000);
    // Each render walks every row held: 51 batches of rows were 51 walks of up to 100,000 rows.
    const renders = batches.filter((b) => !b.update);
    expect(renders.length).toBeLessThanOrEqual(16);
    expect(renders[0]?.rows).toHaveLength(200);
    expect(renders.reduce((n, b) => n + b.rows.length, 0)).toBe(100_000);
    // The last rows are shown before the verdict, which can take seconds to come.
    expect(renders.at(-1)?.done).toBe(100_000);
    expect(batches.at(-1)?.update).toBeDefined();
    // Each render holds at least a third more rows than the one before (the last excepted).
    let held = 0;
    for (const b of renders.slice(0, -1)) {
      if (held) expect(b.rows.length * 3).toBeGreaterThanOrEqual(held);
      held += b.rows.length;
    }
  });

  it("keeps a paged listing's start and its switch to the folder's rows apart from the rows around them", async () => {
    const row = (id: string) => ({ id }) as ChatRow;
    const stream: Chunk[] = [
      {
        rows: [],
        problems: [],
        done: 0,
        total: 2,
        index: { fresh: false, sentence: "Checking." },
        paged: { view: "1" },
      },
      { rows: [], problems: [], done: 0, total: 2, paged: null },
      { rows: [row("a")], problems: [], done: 1, total: 2 },
      { rows: [row("b")], problems: [], done: 2, total: 2 },
    ];
    const out: ChatListBatch[] = [];
    for await (const chunk of gatherBatches(slowly(stream))) out.push(chunk as ChatListBatch);
    // The folder's rows come after the switch, never inside it (the page drops what the switch carries).
    const switchAt = out.findIndex((b) => b.paged === null);
    expect(out[switchAt]?.rows).toEqual([]);
    expect(out.slice(switchAt + 1).flatMap((b) => b.rows.map((r) => r.id))).toEqual(["a", "b"]);
    expect(out[0]?.paged).toEqual({ view: "1" });
  });

  it("still shows a short list batch by batch", async () => {
    const batches = await shown(4200);
    expect(batches.map((b) => [b.rows.length, b.done])).toEqual([
      [200, 200],
      [2000, 2200],
      [2000, 4200],
      [0, 4200],
    ]);
  });
});

describe("the chat list read from /api/chats", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("says so where the list's errors go when the server sends columns this page does not read", async () => {
    const body = `${JSON.stringify({ rows: [["c-a"]], problems: [], done: 1, total: 1, columns: ["id"] })}\n`;
    vi.stubGlobal("fetch", async () => new Response(body));
    const chunks: Chunk[] = [];
    for await (const chunk of readListStream(new AbortController().signal, "/api/chats")) chunks.push(chunk);
    expect(chunks).toEqual([
      {
        error: {
          code: "unexpected",
          message: "The chat list came in columns this page does not read; reload the page.",
        },
      },
    ]);
  });
});
