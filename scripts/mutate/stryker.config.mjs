// StrykerJS settings of `npm run mutate` (scripts/mutate/run.mjs passes --mutate, --incrementalFile and
// --concurrency per file, and the tests in ODA_MUTATE_TESTS, read by vitest.mutate.config.ts).
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  coverageAnalysis: "perTest",
  incremental: true,
  reporters: ["clear-text", "json", "progress"],
  jsonReporter: { fileName: process.env.ODA_MUTATE_REPORT ?? "reports/mutation/mutation.json" },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  ignorePatterns: [
    ".stryker-tmp",
    ".next",
    ".next-*",
    ".oda-demo",
    "test-results",
    "playwright-report",
    "bench/out",
    "dist",
    "reports",
    "docs",
    "e2e",
    "scripts/mutate/node_modules",
    "scripts/mutate/incremental",
    "*.tgz",
  ],
  // A mutant that makes a test loop or wait is a timeout (killed); the machine is shared and slow.
  timeoutMS: 30_000,
  timeoutFactor: 2,
  thresholds: { high: 85, low: 70, break: null },
};
