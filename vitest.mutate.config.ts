import base from "./vitest.config";

// `npm run mutate` (scripts/mutate/run.mjs): the tests of one mutated file, named in ODA_MUTATE_TESTS
// (comma-separated globs); vitest's own settings otherwise. Not used by `npm test`.
const tests = (process.env.ODA_MUTATE_TESTS ?? "").split(",").filter(Boolean);
if (!tests.length) throw new Error("vitest.mutate.config.ts is for npm run mutate, which sets ODA_MUTATE_TESTS");

export default {
  ...base,
  test: { ...base.test, include: tests, setupFiles: ["./scripts/mutate/child-mutant.ts"] },
};
