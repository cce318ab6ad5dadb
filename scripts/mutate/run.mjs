#!/usr/bin/env node
// `npm run mutate [-- <file>...] [-- --concurrency 2] [-- --retest-static]`: StrykerJS with its vitest runner over the safety core
// (scripts/mutate/targets.mjs), one file at a time, each with its own incremental file
// (scripts/mutate/incremental/<file>.json, committed) so a rerun tests only the mutants whose code or
// tests changed. Then the per-file scores (scripts/mutate/scores.mjs). Not part of `npm test`.
//
// StrykerJS 9.6 (the last that runs on Node 20; 10 needs Node >= 22) is installed on demand from
// scripts/mutate/package-lock.json into scripts/mutate/node_modules, so `npm ci` and `npm test` never pull
// it (about 65 MB). It resolves vitest from the project's own node_modules (legacy-peer-deps).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { forgetStaleStatic } from "./stale-static.mjs";
import { TARGETS } from "./targets.mjs";

const here = import.meta.dirname;
const root = resolve(here, "..", "..");
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    concurrency: { type: "string", default: "2" },
    list: { type: "boolean" },
    "retest-static": { type: "boolean" },
  },
});
if (values.list) {
  for (const t of TARGETS) console.log(t.file);
  process.exit(0);
}
const concurrency = Math.min(2, Math.max(1, Number(values.concurrency) || 1)); // a shared two-core machine

const lock = readFileSync(join(here, "package-lock.json"), "utf8");
const stamp = join(here, "node_modules", ".installed-lock");
if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== lock) {
  console.log("▶ installing StrykerJS (npm ci in scripts/mutate)");
  const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: here, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status || 1);
  writeFileSync(stamp, lock);
}

const wanted = positionals.length ? TARGETS.filter((t) => positionals.includes(t.file)) : TARGETS;
const unknown = positionals.filter((p) => !TARGETS.some((t) => t.file === p));
if (unknown.length) {
  console.error(`not in scripts/mutate/targets.mjs: ${unknown.join(", ")}`);
  process.exit(2);
}

const stryker = join(here, "node_modules", "@stryker-mutator", "core", "bin", "stryker.js");
let failed = 0;
for (const { file, tests } of wanted) {
  const name = file
    .replace(/^lib\//, "")
    .replace(/\.ts$/, "")
    .replaceAll("/", "-");
  const incremental = join(here, "incremental", `${name}.json`);
  const report = join(root, "reports", "mutation", `${name}.json`);
  mkdirSync(dirname(incremental), { recursive: true });
  console.log(`\n▶ ${file} (tests: ${tests.join(" ")})`);
  // Survived static mutants are tested again when the tests changed (StrykerJS would keep them survived).
  const forgotten = forgetStaleStatic(root, incremental, tests, values["retest-static"]);
  if (forgotten) console.log(`  ${forgotten} survived static mutant(s) tested again (scripts/mutate/stale-static.mjs)`);
  const r = spawnSync(
    process.execPath,
    [
      stryker,
      "run",
      join(here, "stryker.config.mjs"),
      "--mutate",
      file,
      "--incrementalFile",
      incremental,
      "--concurrency",
      String(concurrency),
      // Its own sandbox folder, so that two runs at once (e.g. two files at concurrency 1) never clean each other's.
      "--tempDirName",
      `.stryker-tmp/${name}`,
    ],
    {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, ODA_MUTATE_TESTS: tests.join(","), ODA_MUTATE_REPORT: report, ODA_FUZZ_FIXED: "1" },
    },
  );
  if (r.status !== 0) failed++;
}
spawnSync(process.execPath, [join(here, "scores.mjs")], { cwd: root, stdio: "inherit" });
process.exit(failed ? 1 : 0);
