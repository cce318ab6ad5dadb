/**
 * `npm run bench:bundle-preview [-- --chats 100000] [-- --gb 1]`: the Support
 * page's preview of every chat (every redaction kind on) of a log folder of
 * 100,000 short chats and one 1 GB (decompressed) log, on the bundle thread as
 * the page runs it, against reading every log in the same run:
 *
 * - `cat *.zstd | zstd -dc`: decoding every log, nothing else (the floor);
 * - the doctor alone (`runDoctor`, as the preview reads): decoding and parsing every log, no redaction.
 *
 * The preview reads each log once (issue 26): the doctor's read is the secret scan's too. Data is made once
 * under bench/out (the chats as `bench:scale` writes them; the huge log shared with `bench:bundle`).
 */
import { execSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REDACT_KINDS } from "../lib/bundle";
import { BUNDLE_HEAP_MB, bundleThreadFile, runBundleThread } from "../lib/bundle/in-worker";
import { BOUNDED_READ, runDoctor } from "../lib/doctor";
import { writeChat } from "./scale-data";
import { makeHugeLog } from "./sessions-data";

const { values } = parseArgs({
  options: {
    chats: { type: "string" },
    gb: { type: "string" },
    "heap-mb": { type: "string" },
    data: { type: "string" },
  },
});
// The bundle thread's heap limit (the page's: BUNDLE_HEAP_MB). At 100,000 chats a preview needed more than that
// until it held counts instead of an entry per file (docs/performance.md, Support bundles).
const heapMb = Number(values["heap-mb"] ?? BUNDLE_HEAP_MB);
const chats = Number(values.chats ?? 100_000);
const gb = Number(values.gb ?? 1);
// --data DIR keeps the generated folders outside the checkout (a `next build` traces bench/out).
const root = values.data ?? join(process.cwd(), "bench", "out");
const log = (s: string) => console.log(s);

async function makeFolder(): Promise<string> {
  const logs = join(root, "bundle-preview", `logs-${chats}-${gb}`);
  if (existsSync(join(logs, ".complete"))) return logs;
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  const pending: Promise<void>[] = [];
  for (let i = 0; i < chats; i++) {
    pending.push(writeChat(logs, i));
    if (pending.length >= 64) await Promise.all(pending.splice(0));
    if ((i + 1) % 10_000 === 0) log(`  ${i + 1} / ${chats} chats written`);
  }
  await Promise.all(pending);
  if (gb > 0) {
    // The huge log of bench:bundle, hard-linked (no copy of the gigabyte).
    const huge = await makeHugeLog(join(root, "bundle"), gb * 1e9, log);
    mkdirSync(join(logs, "_no-cwd", "huge"), { recursive: true });
    execSync(`ln ${JSON.stringify(huge)} ${JSON.stringify(join(logs, "_no-cwd", "huge", "session.v4.jsonl.zstd"))}`);
  }
  writeFileSync(join(logs, ".complete"), "");
  return logs;
}

function seconds(t: number): number {
  return (performance.now() - t) / 1000;
}

const logs = await makeFolder();
const decoded = Number(
  execSync(`find ${JSON.stringify(logs)} -name '*.zstd' -print0 | xargs -0 cat | zstd -dcq | wc -c`, {
    encoding: "utf8",
    shell: "/bin/bash",
  }).trim(),
);
log(`\nlog folder: ${chats} chats + one ${gb} GB log, ${(decoded / 1e9).toFixed(2)} GB decoded\n`);

/** CPU seconds (user + system) of this process since `from`, every thread's (the bundle thread's too). */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
};

let t = performance.now();
// On a shared machine a process gets a share of a core: CPU time is compared too (the pipeline's, every process).
const floorCpu = execSync(
  `{ TIMEFORMAT='%U %S'; time (find ${JSON.stringify(logs)} -name '*.zstd' -print0 | xargs -0 cat | zstd -dcq > /dev/null); } 2>&1`,
  { encoding: "utf8", shell: "/bin/bash" },
)
  .trim()
  .split(/\s+/)
  .slice(-2)
  .reduce((n, x) => n + Number(x), 0);
const floor = seconds(t);

t = performance.now();
let cpu = process.cpuUsage();
await runDoctor({ home: null, logs }, BOUNDED_READ);
const doctor = seconds(t);
const doctorCpu = cpuSince(cpu);

const file = bundleThreadFile();
if (!file) throw new Error("no bundle thread file beside lib/bundle/in-worker.ts");
t = performance.now();
cpu = process.cpuUsage();
const preview = await runBundleThread(
  file,
  {
    roots: { home: null, logs },
    scope: { chats: "all", since: null, memory: false, kinds: [...REDACT_KINDS], keywords: [], dropText: false },
    target: null,
    version: "bench",
  },
  undefined,
  heapMb,
);
const took = seconds(t);
const tookCpu = cpuSince(cpu);

const row = (name: string, s: number, c: number) =>
  log(
    `${name.padEnd(44)} ${s.toFixed(1).padStart(7)} s  ${(decoded / 1e6 / s).toFixed(0).padStart(5)} MB/s decoded  ${(s / floor).toFixed(2).padStart(6)}x zstd -dc  ${(s / doctor).toFixed(2).padStart(5)}x doctor  cpu ${c.toFixed(1).padStart(6)} s ${(c / floorCpu).toFixed(2).padStart(6)}x`,
  );
row("cat *.zstd | zstd -dc (decode only)", floor, floorCpu);
row("doctor (decode + parse every log)", doctor, doctorCpu);
row(`Support preview, every kind (bundle thread, ${heapMb} MB heap)`, took, tookCpu);
log(
  `\npreview: ${preview.manifest.counts.files} files, ${preview.manifest.counts.redactedFiles} to be rewritten; replaced ${JSON.stringify(preview.manifest.counts.replaced)}`,
);
