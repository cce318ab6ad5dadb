// Types of stale-static.mjs, for its test.
export function expandTests(root: string, globs: readonly string[]): string[];
export function testsChanged(root: string, report: unknown, tests: readonly string[]): boolean;
export function forgetStaleStatic(
  root: string,
  incrementalFile: string,
  tests: readonly string[],
  always?: boolean,
): number;
