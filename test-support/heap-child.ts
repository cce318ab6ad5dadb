import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";

/**
 * Runs a TypeScript file of `test-support/` as its own Node process with `--expose-gc` (so it can measure
 * its heap after full collections) and the shims a server's modules need, and returns what it printed as
 * JSON. The heap-per-chat tests (preview-memory, scan-memory) take slopes between two such runs.
 */
export function runHeapChild<T>(script: string, args: string[]): T {
  const child = spawnSync(
    process.execPath,
    [
      "--expose-gc",
      "--import",
      join(import.meta.dirname, "..", "scripts", "node-shim", "register.mjs"),
      "--import",
      "tsx",
      join(import.meta.dirname, script),
      ...args,
    ],
    { encoding: "utf8", maxBuffer: 1 << 20 },
  );
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout) as T;
}
