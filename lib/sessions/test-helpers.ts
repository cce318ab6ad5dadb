import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";

/** The golden fixtures folder. */
export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder, removed after the test; with `fixture`, a copy of that fixture folder. */
export function tempDir(fixture?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "oda-sessions-"));
  made.push(dir);
  if (fixture) cpSync(join(FIXTURES, fixture), dir, { recursive: true });
  return dir;
}
