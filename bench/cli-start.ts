/**
 * `npm run bench:cli [-- --runs 15]`: the installed CLI's start-up against
 * `node -e 0` measured in the same run, and the package's sizes.
 *  - packs the repository (prepack reuses a current build) and installs the
 *    tarball into bench/out/cli-start/prefix, again only when the tarball changed;
 *  - medians of N runs of `node -e 0`, the installed `oda-admin --help` and
 *    `oda-admin sessions list` over a small demo log folder, with their ratios;
 *    `--help` from the TypeScript sources through tsx (the old way) for scale;
 *  - the tarball's size and the installed size (the package alone, and with its dependencies).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { makeDemo } from "../scripts/demo";

const { values } = parseArgs({ options: { runs: { type: "string" } } });
const runs = Number(values.runs ?? 15);
const root = join(import.meta.dirname, "..");
const out = join(root, "bench", "out", "cli-start");
const prefix = join(out, "prefix");
const installed = join(prefix, "lib", "node_modules", "oda-admin");
const log = (s: string) => console.log(s);

function mustRun(command: string, args: string[], cwd = root): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status})`);
  return result.stdout;
}

/** Bytes under `path`, not following symlinks. */
function sizeOf(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** The median wall time of `n` runs of `node ...args`, after one unmeasured warm-up run. */
function timeNode(args: string[], n: number): number {
  const once = () => {
    const t = performance.now();
    const result = spawnSync(process.execPath, args, { cwd: root, stdio: "ignore" });
    if (result.status !== 0) throw new Error(`node ${args.join(" ")} failed (exit ${result.status})`);
    return performance.now() - t;
  };
  once();
  return median(Array.from({ length: n }, once));
}

mkdirSync(out, { recursive: true });
log("packing (npm pack; prepack reuses a current build)…");
for (const name of readdirSync(out)) if (name.endsWith(".tgz")) rmSync(join(out, name));
mustRun("npm", ["pack", "--pack-destination", out, "--silent"]);
const tarball = join(out, readdirSync(out).find((name) => name.endsWith(".tgz")) as string);
const sha = createHash("sha256").update(readFileSync(tarball)).digest("hex");
const shaFile = join(out, "installed.sha256");
if (!existsSync(join(installed, "package.json")) || !existsSync(shaFile) || readFileSync(shaFile, "utf8") !== sha) {
  log("installing the tarball into bench/out/cli-start/prefix (npm compiles better-sqlite3; minutes)…");
  rmSync(prefix, { recursive: true, force: true });
  mustRun("npm", ["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", tarball]);
  writeFileSync(shaFile, sha);
}

const logs = join(out, "demo", "logs");
if (!existsSync(logs)) await makeDemo({ out: join(out, "demo"), seed: 1 });
const chats = mustRun(process.execPath, [join(installed, "bin", "oda-admin"), "sessions", "list", "--logs", logs]);

const bin = join(installed, "bin", "oda-admin");
const baseline = timeNode(["-e", "0"], runs);
const help = timeNode([bin, "--help"], runs);
const list = timeNode([bin, "sessions", "list", "--logs", logs], runs);
// The old way: the TypeScript sources compiled at run time by tsx, as bin/oda-admin ran before the package.
const tsxMain =
  "import { main } from './cli/main.ts'; process.exitCode = await main(['--help'], { out() {}, err() {} });";
const tsxHelp = timeNode(["--import", "tsx", "--input-type=module", "-e", tsxMain], Math.min(runs, 5));
const row = (label: string, value: number, note = "") =>
  log(`  ${label.padEnd(48)}${value.toFixed(0).padStart(6)} ms ${(value / baseline).toFixed(2).padStart(6)}×  ${note}`);
log(`\nstart-up, medians of ${runs} runs (the tsx line: of ${Math.min(runs, 5)}):`);
row("node -e 0", baseline);
row("oda-admin --help (installed)", help, "(goal ≤ 3×)");
row(`oda-admin sessions list (${chats.trim().split("\n").length} chats, installed)`, list);
row("--help from the sources through tsx", tsxHelp, "(before the package)");
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const ownModules = join(installed, "node_modules");
log(`\nsizes:`);
log(`  tarball ${tarball.slice(out.length + 1)}: ${mb(sizeOf(tarball))}`);
log(`  installed, the package alone: ${mb(sizeOf(installed) - (existsSync(ownModules) ? sizeOf(ownModules) : 0))}`);
log(`  installed, with its dependencies: ${mb(sizeOf(installed))}`);
