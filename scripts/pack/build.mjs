#!/usr/bin/env node
// `npm pack` runs this first (prepack): it makes what the package ships.
//  - dist/cli/: the CLI, the demo generator and its live writer as plain JavaScript (esbuild,
//    one chunk per command domain, so a command loads only what it uses).
//  - dist/server/: Next's standalone server and its build output, without the
//    trimmed node_modules Next puts beside it (npm never packs a node_modules):
//    installed, `next`, `react` and the native modules resolve from the
//    package's own dependencies.
// The Next build is reused when it is current (`npm test` has just made it).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { nextBuildIsCurrent } from "../build-state.mjs";

const root = resolve(import.meta.dirname, "..", "..");
const distDir = process.env.NEXT_DIST_DIR || ".next";
const log = (line) => process.stderr.write(`${line}\n`);
// `server-only` throws outside Next's react-server build: an empty module in the CLI and the workers.
const serverOnlyAlias = { "server-only": join(root, "scripts", "node-shim", "empty.mjs") };

// The build needs the dev dependencies (next, esbuild), as `npm start` does.
if (!existsSync(join(root, "node_modules", ".package-lock.json"))) {
  log("oda-admin: installing dependencies (npm ci)…");
  const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) process.exit(1);
}
const { build } = await import("esbuild");

if (!nextBuildIsCurrent(root, distDir)) {
  log("oda-admin: building the dashboard (next build)…");
  const result = spawnSync(join(root, "node_modules", ".bin", "next"), ["build"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) {
    log(`oda-admin: next build failed (exit ${result.status ?? result.signal}).`);
    process.exit(1);
  }
}

// The CLI. Native modules stay external: npm installs them on the target machine.
rmSync(join(root, "dist", "cli"), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    main: "cli/main.ts",
    "make-demo": "scripts/make-demo.ts",
    "live-writer": "scripts/demo/live-writer.ts",
    // The index's reader thread, beside the chunk that starts it (lib/search-index/read-pool.ts looks there).
    "chunks/read-thread": "lib/search-index/read-thread-main.ts",
    // The bundle thread, beside the chunk that starts it (lib/bundle/in-worker.ts looks there).
    "chunks/bundle-thread": "lib/bundle/bundle-thread-main.ts",
  },
  outdir: "dist/cli",
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.9",
  external: ["better-sqlite3", "@mongodb-js/zstd"],
  alias: serverOnlyAlias,
  // Bundled CommonJS dependencies (yaml) still call require().
  banner: {
    js: "import { createRequire as __odaRequire } from 'node:module'; const require = __odaRequire(import.meta.url);",
  },
  legalComments: "none",
  logLevel: "warning",
});

// The server.
const standalone = join(root, distDir, "standalone");
const server = join(root, "dist", "server");
rmSync(server, { recursive: true, force: true });
mkdirSync(server, { recursive: true });
cpSync(join(standalone, "server.js"), join(server, "server.js"));
// preloaded by `oda-admin serve` so a request with two Host headers is refused from the first one
cpSync(join(root, "server", "access", "host-guard.cjs"), join(server, "host-guard.cjs"));
cpSync(join(standalone, distDir), join(server, distDir), {
  recursive: true,
  // Build traces are read by nothing at run time; node_modules would not be packed.
  filter: (path) => !path.endsWith(".nft.json") && !path.startsWith(join(standalone, distDir, "node_modules")),
});
cpSync(join(root, distDir, "static"), join(server, distDir, "static"), { recursive: true });
if (existsSync(join(root, "public"))) cpSync(join(root, "public"), join(server, "public"), { recursive: true });
unhashExternals(join(standalone, distDir, "node_modules"), join(server, distDir, "server"));
// The decode and index refresh workers, compiled where the server looks for them (`<cwd>/server/workers/decode-thread.mjs`, `index-thread.mjs`; the
// standalone server runs in its own folder): the clone's copy would need tsx, a dev dependency. The refresh's
// reader threads, beside it (lib/search-index/read-pool.ts looks beside the code that starts them).
await build({
  absWorkingDir: root,
  entryPoints: {
    "decode-thread": "server/workers/decode-thread-main.ts",
    "index-thread": "server/workers/index-thread-main.ts",
    "read-thread": "lib/search-index/read-thread-main.ts",
    // The bundle thread of Support's preview and bundle (server/jobs/bundle-jobs.ts looks in <cwd>/server/workers).
    "bundle-thread": "lib/bundle/bundle-thread-main.ts",
  },
  outdir: join(server, "server", "workers"),
  outExtension: { ".js": ".mjs" },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20.9",
  packages: "external",
  alias: serverOnlyAlias,
  legalComments: "none",
  logLevel: "warning",
});
log(`oda-admin: package contents ready in dist/ (CLI and server)`);

/**
 * Turbopack requires each external package (better-sqlite3, @mongodb-js/zstd)
 * by a hashed alias that a symlink in `<distDir>/node_modules` resolves. That
 * folder cannot travel in a tarball, so the aliases go back to the package
 * names, which resolve from the installed package's dependencies.
 */
function unhashExternals(aliasDir, serverDir) {
  if (!existsSync(aliasDir)) return;
  const aliases = new Map();
  for (const entry of readdirSync(aliasDir, { withFileTypes: true })) {
    const names = entry.name.startsWith("@")
      ? readdirSync(join(aliasDir, entry.name)).map((name) => `${entry.name}/${name}`)
      : [entry.name];
    for (const alias of names) {
      const real = alias.match(/^(.+)-[0-9a-f]{16}$/)?.[1];
      if (real) aliases.set(alias, real);
    }
  }
  if (!aliases.size) return;
  const pattern = new RegExp([...aliases.keys()].map((a) => a.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|"), "g");
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".js")) {
        const text = readFileSync(path, "utf8");
        const next = text.replace(pattern, (alias) => aliases.get(alias));
        if (next !== text) writeFileSync(path, next);
      }
    }
  };
  walk(serverDir);
}
