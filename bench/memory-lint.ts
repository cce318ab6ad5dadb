/**
 * `npm run bench:memory-lint`: memory lint over 200 workspaces × 100
 * memories (+ 100 global), timed against a baseline measured in the same
 * run: fs.readFile of every memory file (bounded parallelism). "Cold" lint
 * starts with the parse cache cleared (as after a restart), "warm" reuses it;
 * "checks only" is the lint over sets already read (no file call).
 *
 * Texts are drawn from a 5,000-word vocabulary, so unrelated memories share
 * words (as real ones do); one memory in 50 is a near copy of another
 * workspace's and one in 100 an exact copy, so the near-duplicate search has
 * real work. A quadratic comparison would be 20,100² / 2 ≈ 200 million pairs.
 */
import { promises as fsp } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { DEFAULT_LIMITS, listSet, listWorkspaces, serialiseMemoryFile } from "../lib/memory";
import { SETTLE_MS } from "../lib/memory/file-cache";
import { lintMemory, lintSets } from "../lib/memory/lint";
import { clearParseCache } from "../lib/memory/read-file";

const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? 200);
const PER_SET = Number(process.env.BENCH_PER_SET ?? 100);

let seed = 12345;
const rand = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 2 ** 32;
};
const VOCAB = Array.from({ length: 5000 }, (_, i) => `word${i.toString(36)}`);
const sentence = (n: number) => Array.from({ length: n }, () => VOCAB[Math.floor(rand() * VOCAB.length)]).join(" ");

async function pool<T>(items: T[], limit: number, fn: (t: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

async function best(runs: number, fn: () => Promise<unknown>): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

async function buildHome(home: string): Promise<number> {
  const texts: string[] = [];
  let files = 0;
  const folders = [
    join(home, "memory/global"),
    ...Array.from({ length: WORKSPACES }, (_, w) => join(home, `memory/workspaces/ws-${w}`)),
  ];
  for (const [s, folder] of folders.entries()) {
    await mkdir(folder, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let i = 0; i < PER_SET; i++) {
      const k = s * PER_SET + i;
      let text = sentence(10 + Math.floor(rand() * 60));
      const earlier = texts[Math.floor(rand() * texts.length)];
      if (earlier && k % 50 === 25) text = `${earlier} ${sentence(2)}`;
      else if (earlier && k % 100 === 50) text = earlier.toUpperCase();
      texts.push(text);
      const raw = serialiseMemoryFile(
        {
          title: k % 40 === 7 ? `Preference ${i}` : `${sentence(3)} ${k}`,
          enabled: i % 7 !== 0,
          source: i % 2 ? "ai" : "user",
          created: new Date(1_780_000_000_000 + i * 1000).toISOString(),
        },
        text,
      );
      writes.push(writeFile(join(folder, (s * 1000 + i).toString(16).padStart(8, "0")), raw));
      files++;
    }
    await Promise.all(writes);
  }
  return files;
}

async function main() {
  const base = await mkdtemp(join(tmpdir(), "oda-bench-lint-"));
  const home = join(base, "home");
  try {
    const files = await buildHome(home);
    console.log(`home: ${WORKSPACES} workspaces × ${PER_SET} memories + ${PER_SET} global = ${files} files`);
    console.log(`load average at start: ${(await fsp.readFile("/proc/loadavg", "utf8").catch(() => "?")).trim()}`);
    await new Promise((r) => setTimeout(r, SETTLE_MS)); // files younger than this are never cached

    const rawRead = await best(3, async () => {
      const folders = [
        join(home, "memory/global"),
        ...(await readdir(join(home, "memory/workspaces"))).map((w) => join(home, "memory/workspaces", w)),
      ];
      for (const folder of folders) await pool(await readdir(folder), 32, (n) => fsp.readFile(join(folder, n)));
    });
    const cold = await best(3, () => {
      clearParseCache();
      return lintMemory(home, { all: true });
    });
    const warm = await best(3, () => lintMemory(home, { all: true }));
    const sets = await Promise.all([null, ...(await listWorkspaces(home))].map((k) => listSet(home, k)));
    let report = lintSets(sets, DEFAULT_LIMITS);
    const cpu0 = process.cpuUsage();
    const checks = await best(3, async () => {
      report = lintSets(sets, DEFAULT_LIMITS);
    });
    const cpu = process.cpuUsage(cpu0);

    const row = (name: string, ms: number) =>
      `${name.padEnd(48)}${ms.toFixed(1).padStart(10)} ms${(ms / rawRead).toFixed(2).padStart(9)}×`;
    console.log(`${"".padEnd(48)}${"time".padStart(13)}${"÷ readFile".padStart(11)}`);
    console.log(row("baseline: fs.readFile of every memory file", rawRead));
    console.log(row("lint --all, cold (parse cache cleared, best of 3)", cold));
    console.log(row("lint --all, warm (best of 3)", warm));
    console.log(row("  checks only, over sets already read", checks));
    // wall times move with the machine's load; the CPU time of the checks does not
    console.log(`  checks only: ${((cpu.user + cpu.system) / 3000).toFixed(1)} ms of CPU per run (mean of 3)`);
    console.log(`findings: ${JSON.stringify(report.counts)} over ${report.memories} memories`);
    console.log(`peak RSS: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

await main();
