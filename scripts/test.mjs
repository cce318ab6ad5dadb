#!/usr/bin/env node
// `npm test`: install what is missing (npm packages; Debian's Chromium), then
// lint, type-check, unit tests, a production build, the installed package and
// the end-to-end tests.
// It ends with vitest's and Playwright's own summary lines.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function step(title, command, args, options = {}) {
  process.stdout.write(`\n▶ ${title}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env, ...options });
  if (result.status !== 0) {
    process.stdout.write(`\n✖ ${title} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status || 1);
  }
}

if (!existsSync(join(root, "node_modules", ".package-lock.json"))) {
  step("install npm packages (npm ci)", "npm", ["ci", "--no-audit", "--no-fund"]);
}
if (!existsSync("/usr/bin/chromium")) {
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const apt = (args) => (sudo.length ? ["sudo", ["apt-get", ...args]] : ["apt-get", args]);
  step("apt-get update", ...apt(["update", "-qq"]));
  step("install Debian's chromium", ...apt(["install", "-y", "-qq", "chromium"]), {
    env: { ...env, DEBIAN_FRONTEND: "noninteractive" },
  });
}

// biome.json also holds the layers (no import runs back up: overrides per folder) and forbids import circles.
step("lint (biome: style, layers, import circles)", bin("biome"), ["check", "."]);
step("type-check (tsc)", bin("tsc"), ["--noEmit"]);
step("unit tests (vitest)", bin("vitest"), ["run"]);
step("production build (next build)", bin("next"), ["build"]);
// Reuses the build above (prepack skips a current one); most of its time is npm compiling better-sqlite3.
step("package (npm pack, install the tarball, oda-admin serve and doctor)", process.execPath, [
  join(root, "scripts", "pack", "check-package.mjs"),
]);
step("end-to-end tests (playwright, Debian's chromium)", bin("playwright"), ["test"]);
