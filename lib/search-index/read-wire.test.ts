import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import type { BatchMessage, SummaryMessage } from "./read-messages";
import { packMessage, unpackMessage } from "./read-wire";
import { packTexts } from "./texts";

const texts = ["plain budget text", "emoji 🎉 and é", "a lone surrogate \ud800 here", 'quotes " and \\ and \n'];

function batch(fields: Record<string, unknown>): BatchMessage {
  return {
    kind: "batch",
    mode: "full",
    fields,
    lines: [2, 3, 5, 6],
    roles: [0, 1, "custom", 3],
    ts: [1767254460000, "2026-01-01T08:01:00Z", null, 1767254461000],
    texts,
    // Two blocks: the first cut short by a log-backed entry (null), so the second starts at 3.
    blocks: packTexts([texts[0] as string, texts[1] as string, null, texts[3] as string], Buffer.alloc(64, 97)),
    seeks: [{ line: 4, dec: 4_000_000, comp: 900_000 }],
    usage: [[1963616, "oda-large-2026-10", 3, 0, 65, 214]],
    linesRead: 6,
  };
}

/** The message as the writer's thread receives it: through a real port, its buffer moved. */
async function sent(bytes: Uint8Array): Promise<Uint8Array> {
  const { port1, port2 } = new MessageChannel();
  const got = new Promise<Uint8Array>((resolve) => port2.once("message", resolve));
  port1.postMessage(bytes, [bytes.buffer as ArrayBuffer]);
  const out = await got;
  port1.close();
  port2.close();
  return out;
}

describe("a reader's message packed for the writer", () => {
  it("gives back the same batch: its row, entries, blocks' bytes, seek points and usage", async () => {
    const m = batch({ id: "chat-0", title: null, log_mtime: 1796309216400.5, summary: '~{"a":1}', problems: 0 });
    const copy = unpackMessage(await sent(packMessage(m)));
    expect(copy).toEqual({ ...m, blocks: m.blocks.map((b) => ({ offset: b.offset, data: Buffer.from(b.data) })) });
    expect(m.blocks.map((b) => b.offset)).toEqual([0, 3]);
    for (const b of copy.kind === "batch" ? copy.blocks : []) expect(Buffer.isBuffer(b.data)).toBe(true);
  });

  it("keeps a field left undefined as a field (bound as NULL), not a missing parameter", () => {
    const fields = { id: "chat-0", title: undefined, cwd: null };
    const copy = unpackMessage(packMessage(batch(fields)));
    expect(copy.fields).toEqual({ id: "chat-0", title: null, cwd: null });
    expect(Object.keys(copy.fields)).toEqual(["id", "title", "cwd"]);
    expect(fields.title).toBeUndefined();
  });

  it("gives back a summary-only message", () => {
    const m: SummaryMessage = {
      kind: "summary",
      fields: { id: "c", title: "t" },
      summaryProblems: 2,
      tailUnknown: true,
    };
    expect(unpackMessage(packMessage(m))).toEqual(m);
  });

  it("is a buffer of its own, so moving it to the writer moves nothing else", () => {
    const packed = packMessage(batch({ id: "chat-0" }));
    // A view into Node's shared pool would carry (and detach) the pool's other buffers.
    expect(packed.byteOffset).toBe(0);
    expect(packed.buffer.byteLength).toBe(packed.byteLength);
  });
});
