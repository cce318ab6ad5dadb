#!/usr/bin/env node
// Per-file mutation scores from the incremental files of `npm run mutate`, as a Markdown table
// (docs/mutation.md is written from it). Score = (killed + timed out) / (every valid mutant), as
// StrykerJS counts it: survived and not-covered mutants count against the file.
// `--survivors`: also every survived or not-covered mutant, by line, with its replacement.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TARGETS } from "./targets.mjs";

const dir = join(import.meta.dirname, "incremental");
const results = new Map();
for (const name of existsSync(dir) ? readdirSync(dir) : []) {
  if (!name.endsWith(".json")) continue;
  const report = JSON.parse(readFileSync(join(dir, name), "utf8"));
  for (const [file, { mutants }] of Object.entries(report.files ?? {})) {
    const count = (...states) => mutants.filter((m) => states.includes(m.status)).length;
    const killed = count("Killed", "Timeout");
    const survived = count("Survived");
    const noCoverage = count("NoCoverage");
    const valid = killed + survived + noCoverage;
    const left = mutants.filter((m) => m.status === "Survived" || m.status === "NoCoverage");
    results.set(file.replace(/\\/g, "/"), { killed, survived, noCoverage, valid, left });
  }
}

console.log("| file | mutants | killed | survived | no coverage | score |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const { file } of TARGETS) {
  const r = [...results].find(([path]) => path === file || path.endsWith(`/${file}`))?.[1];
  if (!r) console.log(`| ${file} | not run yet | | | | |`);
  else {
    const score = r.valid ? ((100 * r.killed) / r.valid).toFixed(1) : "n/a";
    console.log(`| ${file} | ${r.valid} | ${r.killed} | ${r.survived} | ${r.noCoverage} | ${score}% |`);
  }
}

if (process.argv.includes("--survivors")) {
  for (const [file, { left }] of results) {
    console.log(`\n${file}`);
    for (const m of left.sort((a, b) => a.location.start.line - b.location.start.line))
      console.log(
        `  ${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName} → ${m.replacement}`,
      );
  }
}
