/**
 * `npm run bench:list-wire [-- --out DIR]`: `/api/chats` served whole to a client that reads as fast as it
 * can (fetch in this process), over the dashboard bench's folder and index (`bench:dashboard -- --out DIR`,
 * built there first): time to the first rows, to the last row and to the folder check's verdict, the bytes sent against the same rows as
 * objects (the form before `lib/chats/list-wire.ts`), and Home's first byte asked for while the list streams,
 * against Home alone in the same run. Needs a production build (NEXT_DIST_DIR as for `next start`).
 */

import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startServer } from "../e2e/server";
import { type WireBatch, wireDecoder } from "../lib/chats/list-wire";

const { values } = parseArgs({ options: { out: { type: "string" }, chats: { type: "string" } } });
const CHATS = Number(values.chats ?? 100_000);
const out = resolve(values.out ?? join(process.cwd(), "bench", "out"));
const logs = join(out, "scale", `logs-${CHATS}-200000000`);
const state = join(out, "dashboard", `state-${CHATS}-200`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

const server = await startServer({ home: join(out, "dashboard", "home"), logs, state });
const headers = { cookie: `oda_admin_${server.port}=${server.token}` };

/** The list read whole: ms to the first line and to the end, bytes, and the bytes of the same rows as objects. */
async function list(query = "", signal?: AbortSignal): Promise<string> {
  const t = performance.now();
  const res = await fetch(`${server.baseURL}/api/chats${query}`, { headers, signal });
  const reader = (res.body as ReadableStream).pipeThrough(new TextDecoderStream()).getReader();
  const decode = wireDecoder();
  let first = 0;
  let last = 0;
  let bytes = 0;
  let objects = 0;
  let rows = 0;
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let nl = buffered.indexOf("\n");
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf("\n");
      if (!first) first = performance.now() - t;
      bytes += Buffer.byteLength(line) + 1;
      const batch = decode(JSON.parse(line) as WireBatch);
      rows += batch.rows.length;
      if (!last && !batch.update && batch.done >= batch.total) last = performance.now() - t;
      objects += Buffer.byteLength(JSON.stringify(batch)) + 1;
    }
  }
  const all = performance.now() - t;
  return `${rows} rows: first ${(first / 1000).toFixed(2)} s, every row ${(last / 1000).toFixed(2)} s, the check's verdict ${(all / 1000).toFixed(2)} s; ${(bytes / 1e6).toFixed(1)} MB sent, ${(objects / 1e6).toFixed(1)} MB as objects (${(bytes / objects).toFixed(2)}×), ${(bytes / rows).toFixed(0)} B a row; load ${load()}`;
}

/** Home's first byte and whole page, ms. */
async function home(): Promise<string> {
  const t = performance.now();
  const res = await fetch(`${server.baseURL}/`, { headers });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let firstByte = 0;
  for (;;) {
    const { done } = await reader.read();
    if (!firstByte) firstByte = performance.now() - t;
    if (done) break;
  }
  return `first byte ${(firstByte / 1000).toFixed(2)} s, whole ${((performance.now() - t) / 1000).toFixed(2)} s`;
}

try {
  console.log(`warm-up: ${await home()}`);
  console.log(`Home alone: ${await home()} (load ${load()})`);
  console.log(`/api/chats: ${await list()}`);
  console.log(`/api/chats?sort=tokens&dir=desc: ${await list("?sort=tokens&dir=desc")}`);
  const listing = list();
  await new Promise((r) => setTimeout(r, 1500));
  console.log(`Home while the list streams (asked 1.5 s in): ${await home()} (load ${load()})`);
  console.log(`  that list: ${await listing}`);
  // A page left while its list streams (the browser aborts the fetch): does the server stop making rows?
  const leave = new AbortController();
  const left = list("?sort=tokens&dir=desc", leave.signal).catch(() => "abandoned");
  await new Promise((r) => setTimeout(r, 1500));
  leave.abort();
  await left;
  console.log(`Home right after a list abandoned 1.5 s in: ${await home()} (load ${load()})`);
  console.log(`Home alone again: ${await home()} (load ${load()})`);
} finally {
  await server.stop();
}
