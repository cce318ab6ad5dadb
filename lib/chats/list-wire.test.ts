import { describe, expect, it } from "vitest";
import { chatRow } from "../../test-support/chats/chat-row";
import { type WireBatch, wireDecoder, wireEncoder } from "./list-wire";
import type { ChatListBatch } from "./views";

const row = chatRow;

/** Through JSON as the route sends it and back as the page reads it. */
function roundTrip(batches: ChatListBatch[]): { wire: string[]; back: ChatListBatch[] } {
  const encode = wireEncoder();
  const decode = wireDecoder();
  const wire = batches.map((b) => JSON.stringify(encode(b)));
  return { wire, back: wire.map((line) => decode(JSON.parse(line) as WireBatch)) };
}

describe("the chat list on the wire", () => {
  it("gives the page every row as the server made it", () => {
    const odd = row("c-odd", {
      title: null,
      cwd: null,
      group: "_no-cwd",
      created: "2026-11-29T18:24:08Z",
      firstActivity: null,
      lastActivity: "not a moment",
      format: null,
      compressed: null,
      generations: [],
      lock: { state: "live", pid: 41, host: "box", startedAt: "2026-11-29T18:24:08.123Z", reason: "Held by 41." },
      cached: false,
      cacheState: "behind",
      behindBytes: 512,
      problems: [{ kind: "form", message: "Bad. raw log: /x", sentence: "Bad.", paths: ["/x"] }],
      notes: 3,
    });
    const batches: ChatListBatch[] = [
      { rows: [row("c-a"), odd], problems: [], done: 2, total: 3, index: { fresh: false, sentence: "Checking." } },
      { rows: [row("c-b", { cacheReason: "A new sentence." })], problems: [], done: 3, total: 3 },
      { rows: [], problems: [], done: 3, total: 3, update: { removed: ["c-a"], replaceProblems: false } },
    ];
    const { back } = roundTrip(batches);
    expect(back).toEqual(JSON.parse(JSON.stringify(batches)));
  });

  it("sends a shared string once a stream, and each row in under half the bytes of its object", () => {
    const rows = Array.from({ length: 1000 }, (_, i) => row(`0b0f7c1e-5d7a-4c11-9a2e-${String(i).padStart(12, "0")}`));
    const batches: ChatListBatch[] = [
      { rows: rows.slice(0, 500), problems: [], done: 500, total: 1000 },
      { rows: rows.slice(500), problems: [], done: 1000, total: 1000 },
    ];
    const { wire } = roundTrip(batches);
    expect(wire.join("").split("The checkpoint matches the log.")).toHaveLength(2);
    expect(wire[1]).not.toContain("/home/ana/zoo");
    const objects = batches.map((b) => JSON.stringify(b)).join("").length;
    expect(wire.join("").length).toBeLessThan(objects / 2);
  });

  it("refuses a stream in columns the page does not read, with a sentence", () => {
    const decode = wireDecoder();
    expect(() => decode({ rows: [], problems: [], done: 0, total: 0, columns: ["id", "title"] })).toThrow(
      "The chat list came in columns this page does not read; reload the page.",
    );
  });
});
