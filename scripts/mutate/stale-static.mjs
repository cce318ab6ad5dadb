// Static mutants and StrykerJS's incremental mode (scripts/mutate/run.mjs, docs/mutation.md).
//
// A static mutant is one in code run while the module loads (a module-level constant, a pattern, a
// table): no single test covers it, so StrykerJS runs every test of the file against it, with the mutant
// on before the module is imported. That works. But its incremental mode reruns a survived mutant only
// when a test now covers it that did not before (`mutantCanBeReused` in @stryker-mutator/core's
// incremental-differ.js), and a static mutant is covered by no test. So once a static mutant has
// survived, the tests written to kill it are never run against it: its result stays "Survived" for ever.
//
// `forgetStaleStatic` removes those results from a file's incremental file before its run, so StrykerJS
// tests them again with the tests as they are now, when they can be stale: the target's test files are
// not those of the recorded run (a file changed, added or gone), or `always` is set
// (`npm run mutate -- --retest-static`). Killed static mutants are kept: a test that kills them still does.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The test files that `globs` names (a `*` in the last part only, as in scripts/mutate/targets.mjs). */
export function expandTests(root, globs) {
  const files = [];
  for (const glob of globs) {
    if (!glob.includes("*")) {
      if (existsSync(join(root, glob))) files.push(glob);
      continue;
    }
    const dir = dirname(glob);
    const name = glob.slice(dir.length + 1);
    const pattern = new RegExp(`^${name.split("*").map(escapeRegExp).join("[^/]*")}$`);
    const entries = existsSync(join(root, dir)) ? readdirSync(join(root, dir)) : [];
    for (const entry of entries.sort()) if (pattern.test(entry)) files.push(`${dir}/${entry}`);
  }
  return files;
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether the test files of `report` (an incremental file) differ from `tests` on disk now. */
export function testsChanged(root, report, tests) {
  const recorded = new Map(
    Object.entries(report.testFiles ?? {}).map(([file, { source }]) => [
      relative(root, resolve(root, file)).replaceAll("\\", "/"),
      source,
    ]),
  );
  const current = expandTests(root, tests);
  if (current.some((file) => !recorded.has(file))) return true;
  for (const [file, source] of recorded) {
    if (!existsSync(join(root, file)) || readFileSync(join(root, file), "utf8") !== source) return true;
  }
  return false;
}

/**
 * Removes from `incrementalFile` the static mutants that were not killed, when they may be stale (see
 * above); answers how many. A mutant removed is new to StrykerJS, which then runs every test against it.
 */
export function forgetStaleStatic(root, incrementalFile, tests, always = false) {
  if (!existsSync(incrementalFile)) return 0;
  const report = JSON.parse(readFileSync(incrementalFile, "utf8"));
  if (!always && !testsChanged(root, report, tests)) return 0;
  let forgotten = 0;
  for (const file of Object.values(report.files ?? {})) {
    const kept = file.mutants.filter((m) => !(m.static && m.status !== "Killed" && m.status !== "Timeout"));
    forgotten += file.mutants.length - kept.length;
    file.mutants = kept;
  }
  if (forgotten) writeFileSync(incrementalFile, JSON.stringify(report, null, 2)); // as StrykerJS writes it
  return forgotten;
}
