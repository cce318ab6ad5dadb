import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getHeapStatistics } from "node:v8";
import { writeChat } from "../../bench/scale-data";
import { createBundle, prepareBundle } from "../../lib/bundle/create";
import { testScope } from "./test-scope";

/**
 * Run as its own process by preview-memory.test.ts (`--expose-gc`): writes `n` short chats (the scale benches'
 * chats, each with its checkpoint, their working folders under /home, so every file is rewritten) into the
 * folder given, previews (or, with `bundle`, makes) a bundle of every chat with every kind on, and prints as
 * JSON the most the heap held above its start while it did (measured after a full collection at every 20th
 * progress report), the longest text `JSON.stringify` made meanwhile and the counts.
 */
const [logs, count, mode] = process.argv.slice(2) as [string, string, "preview" | "bundle"];
const n = Number(count);
if (!existsSync(logs)) {
  mkdirSync(logs, { recursive: true });
  for (let i = 0; i < n; i += 64)
    await Promise.all(Array.from({ length: Math.min(64, n - i) }, (_, k) => writeChat(logs, i + k)));
  writeFileSync(join(logs, "..", `written-${n}`), "");
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const held = () => {
  gc();
  return getHeapStatistics().used_heap_size;
};
const start = held();
let peak = start;
let reports = 0;
const onProgress = () => {
  if (++reports % 20 === 0) peak = Math.max(peak, held());
};
// The longest JSON text made while it ran: a list of every file held as one string grows with the chats.
let longestJson = 0;
const stringify = JSON.stringify;
JSON.stringify = ((...args: Parameters<typeof stringify>) => {
  const text = stringify(...args);
  longestJson = Math.max(longestJson, text?.length ?? 0);
  return text;
}) as typeof stringify;
const roots = { home: null, logs };
if (mode === "bundle") {
  const target = join(logs, "..", `bundle-${n}.tar.gz`);
  const made = await createBundle(roots, testScope(), target, { version: "memory-test", onProgress });
  rmSync(target);
  rmSync(made.mapFile);
  process.stdout.write(JSON.stringify({ peakAbove: peak - start, longestJson, counts: made.manifest.counts }));
} else {
  const preview = await prepareBundle(roots, testScope(), null, { version: "memory-test", onProgress });
  preview.dispose();
  process.stdout.write(JSON.stringify({ peakAbove: peak - start, longestJson, counts: preview.manifest.counts }));
}
