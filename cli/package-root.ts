import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Where the package lives and what its package.json says. */
export interface PackageInfo {
  /** The folder holding oda-admin's package.json: the clone, or the installed package. */
  root: string;
  version: string;
}

let found: PackageInfo | undefined;

/**
 * Finds oda-admin's own package.json by walking up from this module, which
 * lies in `cli/` in a clone and in `dist/cli/` (or a chunk below it) when
 * installed, so neither layout's depth is assumed.
 */
export function readPackage(): PackageInfo {
  if (found) return found;
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "oda-admin") {
        found = { root: dir, version: pkg.version ?? "unknown" };
        return found;
      }
    } catch {
      // No package.json here (or another package's): look one folder up.
    }
  }
  throw new Error("oda-admin's package.json was not found above the CLI.");
}
