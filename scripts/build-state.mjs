// Whether the production build in the dist folder is current, for `npm start`
// and `npm pack` (prepack): both reuse a build that no source is newer than.
// Plain Node with no dependencies: `npm start` runs it before `npm ci` has.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The newest modification time under `path` (a file or a folder), skipping dotfiles, node_modules and tests. */
export function newestSource(path) {
  if (!existsSync(path)) return 0;
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name === "node_modules" || entry.name.endsWith(".test.ts")) continue;
    newest = Math.max(newest, newestSource(join(path, entry.name)));
  }
  return newest;
}

/** What the Next build is made from. */
const BUILD_SOURCES = [
  "app",
  "components",
  "lib",
  "server",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.mjs",
  "tailwind.config.ts",
  "postcss.config.mjs",
  "package-lock.json",
];

/**
 * True when `<root>/<distDir>` holds a finished standalone build (the
 * package's server) that no source is newer than.
 */
export function nextBuildIsCurrent(root, distDir) {
  const buildId = join(root, distDir, "BUILD_ID");
  if (!existsSync(buildId) || !existsSync(join(root, distDir, "standalone", "server.js"))) return false;
  const newest = Math.max(...BUILD_SOURCES.map((p) => newestSource(join(root, p))));
  return newest <= statSync(buildId).mtimeMs;
}
