import fs, { mkdirSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { getHeapStatistics } from "node:v8";
import { encodeName, groupName } from "../../lib/chats/names";
import { openIndex } from "../../lib/search-index/db";
import { scanChanges } from "../../lib/search-index/scan";

/**
 * Run as its own process by scan-memory.test.ts (`--expose-gc`): makes `n` empty chat folders (names are all a
 * scan of new chats reads) in 50 groups under `<dir>/logs`, compares them with a new index in `<dir>/state`
 * (a first build's scan) and prints as JSON the heap the changes hold, after full collections, and their count.
 */
const [dir, count] = process.argv.slice(2) as [string, string];
const n = Number(count);
const logs = join(dir, "logs");
for (let i = 0; i < n; i++)
  mkdirSync(join(logs, groupName(`/home/user/project-${i % 50}`), encodeName(`chat-${i}`)), { recursive: true });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const held = () => {
  gc();
  return getHeapStatistics().used_heap_size;
};
const db = openIndex(join(dir, "state"), logs).db;
// The most the walk holds while it walks: the heap after full collections as each folder is listed.
let walkPeak = 0;
const readdir = fs.readdirSync;
fs.readdirSync = ((...args: Parameters<typeof readdir>) => {
  walkPeak = Math.max(walkPeak, held() - before);
  return readdir(...args);
}) as typeof readdir;
syncBuiltinESMExports();
const before = held();
const changes = await scanChanges(db, logs);
fs.readdirSync = readdir;
syncBuiltinESMExports();
const after = held();
// Every new chat is made when asked for, the last one too.
const last = changes.changed.at(changes.changed.length - 1).seen.loc.id;
process.stdout.write(
  JSON.stringify({ held: after - before, walkPeak, changed: changes.changed.length, added: changes.added, last }),
);
