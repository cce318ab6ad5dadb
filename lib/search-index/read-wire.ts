import type { ReadMessage } from "./read-messages";

/**
 * A reader thread's message to the writer as one buffer, moved to the writer's
 * thread (transferred) rather than copied object by object. `postMessage`'s
 * structured clone walked every key, array item and string of a batch on both
 * threads, and copied each text block's whole backing memory (a block is a
 * view into Node's 8 KiB buffer pool, so an 8 KiB copy for a block of a few
 * hundred bytes): 7–9% of a reader's samples in a 10,000-chat build. V8's JSON
 * is faster at the same walk, and the blocks' bytes are copied once, beside it.
 *
 * Layout: the JSON's length in bytes (4, little-endian), the message as JSON
 * with each block's bytes replaced by their length, then the blocks' bytes in
 * order. What JSON would change is kept out or mapped back: the row's fields
 * hold no `undefined` (bound as NULL, as JSON's `null` is), and texts keep
 * lone surrogates (JSON escapes them).
 */

const HEAD = 4;

/** The message packed into a buffer of its own (not pooled: its memory is transferred). */
export function packMessage(m: ReadMessage): Uint8Array {
  if (m.kind === "summary") return withBlocks(JSON.stringify({ ...m, fields: defined(m.fields) }), []);
  const datas = m.blocks.map((b) => b.data);
  const blocks = m.blocks.map((b) => ({ offset: b.offset, data: b.data.length }));
  return withBlocks(JSON.stringify({ ...m, fields: defined(m.fields), blocks }), datas);
}

/** The message a packed buffer holds; its blocks' bytes are views into that buffer. */
export function unpackMessage(bytes: Uint8Array): ReadMessage {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = buf.readUInt32LE(0);
  const m = JSON.parse(buf.toString("utf8", HEAD, HEAD + length)) as ReadMessage;
  if (m.kind === "summary") return m;
  let at = HEAD + length;
  for (const b of m.blocks as unknown as { offset: number; data: number }[]) {
    const size = b.data;
    (b as unknown as { data: Buffer }).data = buf.subarray(at, at + size);
    at += size;
  }
  return m;
}

function withBlocks(json: string, datas: Uint8Array[]): Uint8Array {
  const length = Buffer.byteLength(json);
  let total = HEAD + length;
  for (const d of datas) total += d.length;
  const out = Buffer.allocUnsafeSlow(total);
  out.writeUInt32LE(length, 0);
  out.write(json, HEAD, "utf8");
  let at = HEAD + length;
  for (const d of datas) {
    out.set(d, at);
    at += d.length;
  }
  return out;
}

/** The row's fields with `undefined` made `null`: JSON would drop the key, and a missing named parameter throws. */
function defined(fields: Record<string, unknown>): Record<string, unknown> {
  for (const key in fields)
    if (fields[key] === undefined) return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v ?? null]));
  return fields;
}
