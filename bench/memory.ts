/**
 * `npm run bench:memory`: a home of 200 workspaces × 50 memories (+ 50
 * global), timed against baselines measured in the same run: reading the
 * same files with plain fs.readFile (same bounded parallelism), and one bare
 * atomic write for the saves. "Cold" runs start with the parse cache cleared
 * (as after a restart); "warm" ones reuse it (one stat per unchanged file).
 */
import { promises as fsp } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { writeFileAtomic } from "../lib/fs";
import { changeMemory, listSet, listWorkspaces, serialiseMemoryFile, tokenBudgets } from "../lib/memory";
import { SETTLE_MS } from "../lib/memory/file-cache";
import { clearParseCache, parseCacheStats } from "../lib/memory/read-file";
import { clearSetSizes, setSizeStats } from "../lib/memory/set-sizes";

let peakRss = process.memoryUsage().rss;
setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20).unref();

const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? 200);
const PER_SET = Number(process.env.BENCH_PER_SET ?? 50);
const SAVES = Number(process.env.BENCH_SAVES ?? 100);
const GLOBAL_SAVES = Number(process.env.BENCH_GLOBAL_SAVES ?? 20);

async function pool<T>(items: T[], limit: number, fn: (t: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function best(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await time(fn));
  return Math.min(...times);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function buildHome(home: string): Promise<string[]> {
  const files: string[] = [];
  const sets = [
    join(home, "memory/global"),
    ...Array.from({ length: WORKSPACES }, (_, w) => join(home, `memory/workspaces/ws-${w}`)),
  ];
  for (const [s, folder] of sets.entries()) {
    await mkdir(folder, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let i = 0; i < PER_SET; i++) {
      const id = (s * 1000 + i).toString(16).padStart(8, "0");
      const path = join(folder, id);
      files.push(path);
      const text = `Memory ${i} of set ${s}: reply in short bullet points and keep the tone friendly.`;
      const raw = serialiseMemoryFile(
        {
          title: `Preference ${i}`,
          enabled: i % 5 !== 0,
          source: i % 2 ? "ai" : "user",
          created: new Date(1_780_000_000_000 + i * 1000).toISOString(),
        },
        text,
      );
      writes.push(writeFile(path, raw));
    }
    await Promise.all(writes);
  }
  return files;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const base = await mkdtemp(join(tmpdir(), "oda-bench-"));
  const home = join(base, "home");
  try {
    const files = await buildHome(home);
    console.log(`home: ${WORKSPACES} workspaces × ${PER_SET} memories + ${PER_SET} global = ${files.length} files`);
    console.log(`load average at start: ${(await fsp.readFile("/proc/loadavg", "utf8").catch(() => "?")).trim()}`);
    // files younger than SETTLE_MS are never cached (file-cache.ts); wait so "warm" means warm
    await sleep(SETTLE_MS);

    const rawRead = await best(3, async () => {
      for (const folder of [
        join(home, "memory/global"),
        ...(await readdir(join(home, "memory/workspaces"))).map((w) => join(home, "memory/workspaces", w)),
      ]) {
        const names = await readdir(folder);
        await pool(names, 32, (n) => fsp.readFile(join(folder, n)));
      }
    });
    // the same-run baseline of one save: a bare atomic write of a memory file (temp, fsync, rename, folder
    // fsync), taken right before each save so both see the same disk (other processes' writes move fsync
    // times by 10× from one minute to the next)
    const scratch = join(base, "scratch");
    await mkdir(scratch);
    const rawWrites: number[] = [];
    const rawWrite = async () =>
      rawWrites.push(
        await time(() => writeFileAtomic(join(scratch, "0000000a"), `---\ntitle: T\n---\n\n${rawWrites.length}\n`)),
      );

    const listAll = async () => {
      for (const ws of [null, ...(await listWorkspaces(home))]) await listSet(home, ws);
    };
    const listingCold = await best(3, () => {
      clearParseCache();
      clearSetSizes();
      return listAll();
    });
    const listingWarm = await best(3, listAll);
    const warmStats = { ...parseCacheStats };
    const payloadsCold = await best(3, () => {
      clearParseCache();
      clearSetSizes();
      return tokenBudgets(home);
    });
    const payloadsWarm = await best(3, () => tokenBudgets(home));

    // a cold global save: the first after the process started (every set read and parsed, no size kept)
    clearParseCache();
    clearSetSizes();
    await rawWrite();
    const globalCold = await time(() => changeMemory(home, null, "00000031", { text: `cold ${"grows ".repeat(30)}` }));

    const wsSaves: number[] = [];
    for (let i = 0; i < SAVES; i++) {
      const id = (1000 * (1 + (i % WORKSPACES)) + (i % PER_SET)).toString(16).padStart(8, "0");
      // odd saves grow the text (the token limit is checked), even ones shrink it (it cannot be exceeded)
      const text =
        i % 2
          ? `changed ${i}: ${"a longer text than before, so the chat limit is checked ".repeat(2)}`
          : `changed ${i}`;
      await rawWrite();
      wsSaves.push(await time(() => changeMemory(home, `ws-${i % WORKSPACES}`, id, { text })));
    }
    const globalSaves: number[] = [];
    const sizesBefore = { ...setSizeStats };
    for (let i = 0; i < Math.min(GLOBAL_SAVES, SAVES); i++) {
      const id = (i % PER_SET).toString(16).padStart(8, "0");
      await rawWrite();
      globalSaves.push(await time(() => changeMemory(home, null, id, { text: `global ${i} ${"grows ".repeat(30)}` })));
    }
    const sizeCounts = (Object.keys(setSizeStats) as (keyof typeof setSizeStats)[])
      .map((k) => `${setSizeStats[k] - sizesBefore[k]} ${k}`)
      .join(", ");

    const row = (name: string, ms: number, extra = "") =>
      `${name.padEnd(52)}${ms.toFixed(2).padStart(10)} ms${(ms / rawRead).toFixed(3).padStart(9)}×${extra}`;
    const oneWrite = median(rawWrites);
    const vsWrite = (ms: number) => `${(ms / oneWrite).toFixed(1).padStart(8)}× one atomic write`;
    console.log(`${"".padEnd(52)}${"time".padStart(13)}${"÷ readFile".padStart(11)}`);
    console.log(row("baseline: fs.readFile of every memory file", rawRead));
    console.log(row(`baseline: one atomic write (median of ${rawWrites.length})`, oneWrite));
    console.log(row("listing every set, cold (cache cleared, best of 3)", listingCold));
    console.log(row("listing every set, warm (best of 3)", listingWarm));
    console.log(`  warm runs: ${warmStats.hits} cache hits, ${warmStats.parsed} files parsed (last cold run included)`);
    console.log(row("every chat's payload size, cold (best of 3)", payloadsCold));
    console.log(row("every chat's payload size, warm (best of 3)", payloadsWarm));
    const grow = wsSaves.filter((_, i) => i % 2);
    const shrink = wsSaves.filter((_, i) => i % 2 === 0);
    console.log(row(`workspace save, median of ${wsSaves.length}`, median(wsSaves), vsWrite(median(wsSaves))));
    console.log(row("  growing text (limit checked), median", median(grow), vsWrite(median(grow))));
    console.log(row("  shrinking text (no limit check), median", median(shrink), vsWrite(median(shrink))));
    console.log(row("global save, cold cache (first after start)", globalCold, vsWrite(globalCold)));
    console.log(row(`global save, median of ${globalSaves.length}`, median(globalSaves), vsWrite(median(globalSaves))));
    // "unwatched" > 0: no inotify watch could be kept (see set-sizes.ts), so those sizes were read from the files.
    console.log(`  workspace sizes during the global saves: ${sizeCounts}`);
    console.log(
      `targets: listing ≤ 3× baseline (cold): ${listingCold <= 3 * rawRead ? "met" : "NOT met"}; workspace save median < 10 ms: ${median(wsSaves) < 10 ? "met" : "NOT met"}; global save median ≤ 10 ms (issue 13): ${median(globalSaves) <= 10 ? "met" : "NOT met"}`,
    );
    console.log(`peak RSS: ${(Math.max(peakRss, process.memoryUsage().rss) / 2 ** 20).toFixed(0)} MiB`);
    console.log(`load average at end: ${(await fsp.readFile("/proc/loadavg", "utf8").catch(() => "?")).trim()}`);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

await main();
