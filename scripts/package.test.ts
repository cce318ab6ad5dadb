/**
 * `npm ci` with no warning the project can avoid: every package the lock
 * installs accepts the Node versions the project promises (no EBADENGINE), and
 * `allowScripts` (npm 11) names exactly the packages whose install scripts run.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// semver comes with npm's own dependencies (better-sqlite3, sharp): the same rules npm applies.
const semver = createRequire(import.meta.url)("semver") as { satisfies: (v: string, range: string) => boolean };

interface LockPackage {
  dev?: boolean;
  engines?: { node?: string };
  hasInstallScript?: boolean;
}

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), "utf8"));
const pkg = read("package.json") as { engines: { node: string }; allowScripts?: Record<string, boolean> };
const lock = read("package-lock.json") as { packages: Record<string, LockPackage> };
const installed = Object.entries(lock.packages).filter(([path]) => path.startsWith("node_modules/"));
const nameOf = (path: string) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);

/** The packages whose engines leave out Node `version`. */
function refusing(version: string, dev: boolean): string[] {
  return installed
    .filter(([, p]) => (dev || !p.dev) && p.engines?.node && !semver.satisfies(version, p.engines.node))
    .map(([path, p]) => `${nameOf(path)} (${p.engines?.node})`);
}

describe("the package's dependencies", () => {
  it("fit the Node versions the project promises", () => {
    const lowest = /^>=\s*(\d+\.\d+)$/.exec(pkg.engines.node)?.[1];
    expect(lowest, "engines.node is >=MAJOR.MINOR").toBeDefined();
    // The installed tool: every runtime dependency runs on the lowest Node promised.
    expect(refusing(`${lowest}.0`, false)).toEqual([]);
    // Development (vite 8 under vitest) needs Node 20.19; nothing may ask for more than Node 20 then.
    expect(refusing("20.19.0", true)).toEqual([]);
  });

  it("allow the install scripts of exactly the packages that have one", () => {
    const withScripts = [...new Set(installed.filter(([, p]) => p.hasInstallScript).map(([path]) => nameOf(path)))];
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual(withScripts.sort());
    expect(Object.values(pkg.allowScripts ?? {}).every((v) => v === true)).toBe(true);
  });
});
