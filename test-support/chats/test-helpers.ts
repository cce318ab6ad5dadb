import { cpSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempFolder } from "../test-temp";

/** The golden fixtures folder. */
export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

/** A fresh temporary folder, removed after the test; with `fixture`, a copy of that fixture folder. */
export function tempDir(fixture?: string): string {
  const dir = tempFolder("oda-sessions-");
  if (fixture) cpSync(join(FIXTURES, fixture), dir, { recursive: true });
  return dir;
}
