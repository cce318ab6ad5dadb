/**
 * `npm run bench:export [-- --gb 1]`: `chat export` of the bench's 1 GB
 * (decompressed) log to Markdown, HTML and JSONL, plain and redacted, against
 * `zstd -dc` of the same log in the same run, with the peak memory (VmHWM) of
 * the process that exports. Each export runs in a child of its own, so its
 * peak is its own. The log is generated once under bench/out (bench:sessions'
 * generator).
 */
import { execSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { makeHugeLog } from "./sessions-data";

const { values } = parseArgs({
  options: {
    gb: { type: "string" },
    child: { type: "string" },
  },
});
const out = join(process.cwd(), "bench", "out", "export");

/** Peak resident memory of this process so far (Linux). */
function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

/** In the child: one export through the CLI's own command, then its time and peak memory. */
async function child(argv: string[]): Promise<void> {
  const { main } = await import("../cli/main");
  const t = performance.now();
  const errors: string[] = [];
  const code = await main(argv, { out: () => {}, err: (s) => errors.push(s) });
  if (code !== 0) throw new Error(`chat export failed (${code}): ${errors.join("\n")}`);
  process.stdout.write(JSON.stringify({ ms: performance.now() - t, peak: peakRss() }));
}

function runChild(argv: string[]): { ms: number; peak: number } {
  const r = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      "./scripts/node-shim/register.mjs",
      "bench/export.ts",
      `--child=${JSON.stringify(argv)}`,
    ],
    { encoding: "utf8", maxBuffer: 1 << 20 },
  );
  if (r.status !== 0) throw new Error(`export child failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function main(): Promise<void> {
  if (values.child) return child(JSON.parse(values.child));
  const gb = Number(values.gb ?? 1);
  mkdirSync(out, { recursive: true });
  const log = await makeHugeLog(join(process.cwd(), "bench", "out"), gb * 1e9, (s) => console.log(s));
  const logs = dirname(dirname(dirname(log)));
  const t = performance.now();
  execSync(`zstd -dc ${log} > /dev/null`, { stdio: ["ignore", "ignore", "inherit"] });
  const baseline = performance.now() - t;
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
  console.log(`\nthe log: ${mb(statSync(log).size)} on disk, ${gb} GB decompressed\n`);
  console.log(
    `${"".padEnd(34)} ${"time".padStart(9)}  ${"vs zstd -dc".padStart(11)}  ${"vs jsonl".padStart(8)}  ${"output".padStart(9)}  peak RSS`,
  );
  // The JSONL export (the log copied through the same reader and file sink) is the Markdown and HTML exports'
  // own baseline: what they add is parsing and rendering each line.
  let jsonl = Number.NaN;
  console.log(`${"zstd -dc (baseline)".padEnd(34)} ${(baseline / 1000).toFixed(1).padStart(7)} s`);
  for (const [format, redact] of [
    ["jsonl", false],
    ["md", false],
    ["html", false],
    ["md", true],
  ] as const) {
    const target = join(out, `huge${redact ? "-redacted" : ""}.${format}`);
    rmSync(target, { force: true });
    const argv = ["chat", "export", "huge", "--logs", logs, "--format", format, "-o", target];
    const r = runChild(redact ? [...argv, "--redact"] : argv);
    const name = `chat export --format ${format}${redact ? " --redact" : ""}`;
    if (format === "jsonl" && !redact) jsonl = r.ms;
    console.log(
      `${name.padEnd(34)} ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${(r.ms / baseline).toFixed(2).padStart(10)}x  ${(r.ms / jsonl).toFixed(2).padStart(7)}x  ${mb(statSync(target).size).padStart(9)}  ${mb(r.peak)} (${(r.peak / 1e6).toFixed(0)} MB)`,
    );
    rmSync(target, { force: true });
  }
}

await main();
