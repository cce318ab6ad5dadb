/**
 * `npm run bench:sessions [-- --chats 100000] [-- --gb 0] [-- --list-only]`: lib/chats against
 * baselines measured in the same run. Data is generated once under bench/out.
 *  - `oda-admin sessions list --json` in a new process vs a plain read + parse of every checkpoint in a new
 *    process (wall, CPU, peak RSS), and `/api/chats` first rows with the index fresh (bench/sessions-list.ts);
 *  - listing 10,000 chats with checkpoints vs reading the same checkpoint files with plain fs, both
 *    sequentially (readFileSync) and in parallel (64 fs.promises.readFile in flight); medians of 5 runs (one at 100,000);
 *  - decoding a 1 GB (decompressed) log vs `zstd -dc | wc -l`;
 *  - time to lines 1..100 and to the last 100 lines; peak memory (RSS) while reading the huge log.
 * `--list-only`: only the new-process `sessions list --json` rows (at 100,000 chats the others take many minutes).
 */
import { execSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { indexLog, listChats, readLogLines } from "../lib/chats";
import { makeChatFolder, makeHugeLog } from "./sessions-data";
import { benchApiChats, benchListProcess } from "./sessions-list";

const { values } = parseArgs({
  options: { chats: { type: "string" }, gb: { type: "string" }, "list-only": { type: "boolean" } },
});
const listOnly = values["list-only"] === true;
const chats = Number(values.chats ?? 10_000);
const gb = Number(values.gb ?? 1);
const out = join(process.cwd(), "bench", "out", "sessions");
const log = (s: string) => console.log(s);

async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

/** The checkpoint files of a bench folder, found the plain way: a readdir of the folder and of each group. */
function checkpointPaths(dir: string): string[] {
  const paths: string[] = [];
  for (const group of readdirSync(dir)) {
    if (group.startsWith(".")) continue;
    for (const chat of readdirSync(join(dir, group))) paths.push(join(dir, group, chat, "session.cache.json"));
  }
  return paths;
}

/** Baseline, sequential: the same readdirs, then readFileSync + JSON.parse of each checkpoint, one after another. */
function plainReadSequential(dir: string): number {
  let n = 0;
  for (const path of checkpointPaths(dir)) n += JSON.parse(readFileSync(path, "utf8")).details.messages > 0 ? 1 : 0;
  return n;
}

/** Baseline, parallel: the same readdirs, then fs.promises.readFile + JSON.parse with 64 reads in flight. */
async function plainReadParallel(dir: string): Promise<number> {
  const paths = checkpointPaths(dir);
  let next = 0;
  let n = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      n += JSON.parse(await readFile(path, "utf8")).details.messages > 0 ? 1 : 0;
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  return n;
}

async function ourList(dir: string): Promise<{ count: number; firstBatchMs: number; cached: number }> {
  const t = performance.now();
  let count = 0;
  let cached = 0;
  let firstBatchMs = 0;
  for await (const batch of listChats(dir)) {
    if (!firstBatchMs) firstBatchMs = performance.now() - t;
    count += batch.chats.length;
    cached += batch.chats.filter((c) => c.cached).length;
  }
  return { count, firstBatchMs, cached };
}

const results: string[] = [];
const push = (line: string) => {
  results.push(line);
  console.log(line);
};
const row = (name: string, ours: number, base: number | null, target: string) =>
  push(
    `${name.padEnd(40)} ${ours.toFixed(1).padStart(9)} ms  ${base === null ? "".padStart(12) : `${base.toFixed(1).padStart(9)} ms`}  ${base === null ? "" : `${(ours / base).toFixed(2)}x`.padStart(6)}  ${target}`,
  );

if (gb > 0) {
  log(`Generating a ${gb} GB log (once)…`);
  const path = await makeHugeLog(out, Math.round(gb * 1e9), log);
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const baseRss = process.memoryUsage().rss;
  const first = await time(() => readLogLines(path, true, 1, 100));
  row("lines 1..100 of the huge log (cold)", first.ms, null, "target < 200 ms");
  const zstd = await time(() => execSync(`zstd -dc '${path}' | wc -l`).toString().trim());
  const scan = await time(() => indexLog(path, true));
  row("decode + index the huge log", scan.ms, zstd.ms, "vs zstd -dc | wc -l, target ≤ 2x");
  if (Number(zstd.value) !== scan.value.lines)
    log(`  line counts differ: zstd ${zstd.value}, ours ${scan.value.lines}`);
  const lastWarm = await time(() => readLogLines(path, true, -99, 100));
  row("last 100 lines (index built)", lastWarm.ms, null, "");
  const middle = await time(() => readLogLines(path, true, Math.floor(scan.value.lines / 2), 100));
  row("100 lines from the middle (index built)", middle.ms, null, "target < 200 ms");
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  push(
    `peak RSS while reading the huge log: ${(peak / 2 ** 20).toFixed(0)} MiB (at start ${(baseRss / 2 ** 20).toFixed(0)} MiB; target < 300 MB)`,
  );
  push(
    `huge log: ${scan.value.lines} lines, ${(scan.value.decodedBytes / 1e9).toFixed(2)} GB decompressed, ${scan.value.points.length} seek points`,
  );
}

log(`Generating ${chats} chats (once)…`);
const dir = await makeChatFolder(out, chats, log);
if (listOnly) {
  await benchListProcess(dir, chats, push);
  push(`load average at the end: ${readFileSync("/proc/loadavg", "utf8").trim()}`);
  process.exit(0);
}
// The first listing in this process; later ones find the file system's caches warm.
const firstBase = await time(() => plainReadSequential(dir));
const first = await time(() => ourList(dir));
row(`list ${chats} chats, first in this process`, first.ms, firstBase.ms, "vs plain fs, sequential (first run)");
// Then several rounds, alternating, so a busy machine weighs on all three alike: medians compared.
const runs: Record<"seq" | "par" | "ours", number[]> = { seq: [], par: [], ours: [] };
let listed = first.value;
// At 100,000 chats one round already takes minutes on a loaded machine.
const rounds = chats >= 50_000 ? 1 : 5;
for (let r = 0; r < rounds; r++) {
  runs.par.push((await time(() => plainReadParallel(dir))).ms);
  runs.seq.push((await time(() => plainReadSequential(dir))).ms);
  const ours = await time(() => ourList(dir));
  runs.ours.push(ours.ms);
  listed = ours.value;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
row(
  `list ${chats} chats with checkpoints`,
  median(runs.ours),
  median(runs.seq),
  "vs plain fs, sequential (readFileSync), target ≤ 2x",
);
row(
  `list ${chats} chats with checkpoints`,
  median(runs.ours),
  median(runs.par),
  "vs plain fs, parallel (64 readFile in flight)",
);
push(
  `first batch of ${listed.count ? 200 : 0} chats after ${listed.firstBatchMs.toFixed(1)} ms; ${listed.cached}/${listed.count} served cached; medians of ${rounds} runs`,
);
await benchListProcess(dir, chats, push);
await benchApiChats(dir, chats, push);
push(`load average at the end: ${readFileSync("/proc/loadavg", "utf8").trim()}`);

console.log(`\n${"measure".padEnd(40)} ${"ours".padStart(12)}  ${"baseline".padStart(12)}  ${"ratio".padStart(6)}`);
for (const r of results) console.log(r);
