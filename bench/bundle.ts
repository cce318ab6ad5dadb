/**
 * `npm run bench:bundle [-- --chats 10000] [-- --gb 1]`: writing a support
 * bundle of a log folder holding a 1 GB (decompressed) log plus 10,000 chats,
 * against `tar -c … | zstd` of the same files in the same run, and the peak
 * memory (VmHWM of the process that writes the bundle). Data is generated once
 * under bench/out (the same generators as bench:sessions).
 *
 * Rows: the bundle with every redaction kind on (every chat's working folder
 * is under /home/user, so all 10,000 small logs are rewritten; the huge log
 * has nothing to replace and goes in byte for byte), and with --no-redact.
 *
 * The child that makes the bundle runs as plain JavaScript, as the installed
 * CLI does (`dist/cli/`, built by esbuild): this file bundled by esbuild into
 * node_modules/.cache (never bench/out, which a `next build` traces), so its
 * times hold no TypeScript compiled at start (tsx took 1 to 2.5 s of CPU).
 * `--tsx` runs it through tsx as before.
 */
import { execFileSync, execSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createBundle, REDACT_KINDS } from "../lib/bundle";
import { makeChatFolder, makeHugeLog } from "./sessions-data";

const { values } = parseArgs({
  options: {
    chats: { type: "string" },
    gb: { type: "string" },
    child: { type: "string" },
    logs: { type: "string" },
    out: { type: "string" },
    data: { type: "string" },
    tsx: { type: "boolean" },
  },
});
// --data DIR keeps the generated folders outside the checkout (a `next build` traces bench/out).
const out = join(values.data ?? join(process.cwd(), "bench", "out"), "bundle");

/** Peak resident memory of this process so far (Linux). */
function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

/** In a child of its own, so that the peak memory is the bundle's alone. */
async function child(mode: string, logs: string, target: string): Promise<void> {
  const t = performance.now();
  const kinds = mode === "redact" ? [...REDACT_KINDS] : [];
  const made = await createBundle(
    { home: null, logs },
    { chats: "all", since: null, memory: false, kinds, keywords: [], dropText: false },
    target,
    { version: "bench" },
  );
  process.stdout.write(
    JSON.stringify({
      ms: performance.now() - t,
      cpuMs: (() => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      })(),
      peak: peakRss(),
      files: made.manifest.counts.files,
      redacted: made.manifest.counts.redactedFiles,
    }),
  );
}

/** This file as plain JavaScript (see above), as `pack` builds the CLI; the path of the child to run. */
async function buildChild(): Promise<string[]> {
  if (values.tsx) return ["--import", "tsx", "--import", "./scripts/node-shim/register.mjs", "bench/bundle.ts"];
  const { build } = await import("esbuild");
  const file = join(process.cwd(), "node_modules", ".cache", "oda-bench", "bundle-child.mjs");
  await build({
    entryPoints: ["bench/bundle.ts"],
    outfile: file,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20.9",
    external: ["better-sqlite3", "@mongodb-js/zstd", "esbuild"],
    alias: { "server-only": join(process.cwd(), "scripts", "node-shim", "empty.mjs") },
    banner: {
      js: "import { createRequire as __odaRequire } from 'node:module'; const require = __odaRequire(import.meta.url);",
    },
    logLevel: "warning",
  });
  return [file];
}

function runChild(
  child: string[],
  mode: string,
  logs: string,
  target: string,
): { ms: number; cpuMs: number; peak: number; files: number; redacted: number } {
  rmSync(target, { force: true });
  rmSync(`${target}.map.json`, { force: true });
  const r = spawnSync(process.execPath, [...child, "--child", mode, "--logs", logs, "--out", target], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`bundle child failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Wall and CPU time (user + system, every process of the pipeline) of a shell command. */
function timeShell(command: string): { ms: number; cpuMs: number } {
  const t = performance.now();
  const times = execSync(`{ TIMEFORMAT='%U %S'; time (${command} >/dev/null 2>&1); } 2>&1`, {
    encoding: "utf8",
    shell: "/bin/bash",
  });
  const [user, system] = times.trim().split(/\s+/).slice(-2).map(Number) as [number, number];
  return { ms: performance.now() - t, cpuMs: (user + system) * 1000 };
}

async function main(): Promise<void> {
  if (values.child) return child(values.child, values.logs as string, values.out as string);
  const chats = Number(values.chats ?? 10_000);
  const gb = Number(values.gb ?? 1);
  mkdirSync(out, { recursive: true });
  const log = (s: string) => console.log(s);
  const small = await makeChatFolder(out, chats, log);
  const hugeLog = await makeHugeLog(out, gb * 1e9, log);
  // One log folder with both: hard links (regular files, no copy of the gigabyte).
  const logs = join(out, `combined-${chats}-${gb}`);
  // The marker lies beside the folder: anything inside it would be a folder the log reader reports.
  if (!existsSync(`${logs}.ready`)) {
    rmSync(logs, { recursive: true, force: true });
    execFileSync("cp", ["-al", small, logs]);
    rmSync(join(logs, ".complete"), { recursive: true, force: true });
    execFileSync("cp", ["-al", join(hugeLog, "..", ".."), join(logs, "_no-cwd")]);
    mkdirSync(`${logs}.ready`);
  }
  const bytes = Number(execSync(`du -sb ${logs} | cut -f1`, { encoding: "utf8" }));
  console.log(`\nlog folder: ${chats} chats + one ${gb} GB log, ${(bytes / 1e6).toFixed(0)} MB on disk\n`);

  const tarZst = join(out, "baseline.tar.zst");
  const { ms: baseline, cpuMs: baselineCpu } = timeShell(`tar -c -C ${logs} . | zstd -q -3 -T1 -o ${tarZst} -f`);
  const childArgs = await buildChild();
  const redacted = runChild(childArgs, "redact", logs, join(out, "bundle-redacted.tar.gz"));
  const plain = runChild(childArgs, "plain", logs, join(out, "bundle-plain.tar.gz"));
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
  // On a shared machine a process gets a share of a core: CPU time (user + system) is compared too. The bundle's
  // includes starting node (and with --tsx, compiling TypeScript: 1 to 2.5 s).
  const row = (name: string, r: { ms: number; cpuMs: number }, size: number, peak: number | null) =>
    console.log(
      `${name.padEnd(36)} ${(r.ms / 1000).toFixed(1).padStart(7)} s ${(r.ms / baseline).toFixed(2).padStart(6)}x  ${(r.cpuMs / 1000).toFixed(1).padStart(6)} s ${(r.cpuMs / baselineCpu).toFixed(2).padStart(6)}x  ${mb(size).padStart(8)}  ${peak === null ? "" : `peak RSS ${mb(peak)} (${(peak / 1e6).toFixed(0)} MB)`}`,
    );
  console.log(
    `${"".padEnd(36)} ${"wall".padStart(9)} ${"vs tar".padStart(7)}  ${"cpu".padStart(8)} ${"vs tar".padStart(7)}  ${"size".padStart(8)}`,
  );
  row("tar -c | zstd -3 (baseline)", { ms: baseline, cpuMs: baselineCpu }, statSync(tarZst).size, null);
  row("bundle create, every redaction on", redacted, statSync(join(out, "bundle-redacted.tar.gz")).size, redacted.peak);
  row("bundle create --no-redact", plain, statSync(join(out, "bundle-plain.tar.gz")).size, plain.peak);
  console.log(
    `\n${redacted.files} files in the bundle, ${redacted.redacted} of them rewritten by the redaction; target: peak RSS < 300 MB`,
  );
}

await main();
