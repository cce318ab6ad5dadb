/**
 * `npm run bench:memory`: a home of 200 workspaces × 50 memories (+ 50
 * global), timed against a baseline measured in the same run: reading the
 * same files with plain fs.readFile (same bounded parallelism).
 */
import { promises as fsp } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { changeMemory, listSet, listWorkspaces, serialiseMemoryFile, tokenBudgets } from "../lib/memory";

const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? 200);
const PER_SET = Number(process.env.BENCH_PER_SET ?? 50);
const SAVES = Number(process.env.BENCH_SAVES ?? 100);

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

async function main() {
  const base = await mkdtemp(join(tmpdir(), "oda-bench-"));
  const home = join(base, "home");
  try {
    const files = await buildHome(home);
    console.log(`home: ${WORKSPACES} workspaces × ${PER_SET} memories + ${PER_SET} global = ${files.length} files`);

    const rawRead = await best(3, async () => {
      for (const folder of [
        join(home, "memory/global"),
        ...(await readdir(join(home, "memory/workspaces"))).map((w) => join(home, "memory/workspaces", w)),
      ]) {
        const names = await readdir(folder);
        await pool(names, 32, (n) => fsp.readFile(join(folder, n)));
      }
    });
    const listing = await best(3, async () => {
      for (const ws of [null, ...(await listWorkspaces(home))]) await listSet(home, ws);
    });
    const payloads = await best(3, () => tokenBudgets(home));

    const wsSaves: number[] = [];
    for (let i = 0; i < SAVES; i++) {
      const id = (1000 * (1 + (i % WORKSPACES)) + (i % PER_SET)).toString(16).padStart(8, "0");
      // odd saves grow the text (the token limit is checked), even ones shrink it (it cannot be exceeded)
      const text =
        i % 2
          ? `changed ${i}: ${"a longer text than before, so the chat limit is checked ".repeat(2)}`
          : `changed ${i}`;
      wsSaves.push(await time(() => changeMemory(home, `ws-${i % WORKSPACES}`, id, { text })));
    }
    const globalSaves: number[] = [];
    for (let i = 0; i < Math.min(10, SAVES); i++) {
      const id = (i % PER_SET).toString(16).padStart(8, "0");
      globalSaves.push(await time(() => changeMemory(home, null, id, { text: `global ${i} ${"grows ".repeat(30)}` })));
    }

    const row = (name: string, ms: number) =>
      `${name.padEnd(48)}${ms.toFixed(1).padStart(9)} ms${(ms / rawRead).toFixed(2).padStart(8)}×`;
    console.log(`${"".padEnd(48)}${"time".padStart(12)}${"ratio".padStart(9)}`);
    console.log(row("baseline: fs.readFile of every memory file", rawRead));
    console.log(row("listing every set with problems", listing));
    console.log(row("computing every workspace's payload", payloads));
    console.log(
      `save with history, workspace memory (median of ${wsSaves.length})`.padEnd(48) +
        `${median(wsSaves).toFixed(2).padStart(9)} ms`,
    );
    const grow = wsSaves.filter((_, i) => i % 2);
    const shrink = wsSaves.filter((_, i) => i % 2 === 0);
    console.log(`  growing text (limit checked), median`.padEnd(48) + `${median(grow).toFixed(2).padStart(9)} ms`);
    console.log(`  shrinking text (no limit check), median`.padEnd(48) + `${median(shrink).toFixed(2).padStart(9)} ms`);
    console.log(
      `save with history, global memory (median of ${globalSaves.length})`.padEnd(48) +
        `${median(globalSaves).toFixed(2).padStart(9)} ms`,
    );
    console.log(
      `targets: listing ≤ 3× baseline: ${listing <= 3 * rawRead ? "met" : "NOT met"}; workspace save median < 10 ms: ${median(wsSaves) < 10 ? "met" : "NOT met"}`,
    );
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

await main();
