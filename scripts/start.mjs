#!/usr/bin/env node
// `npm start`: install what is missing, build when the sources changed, make
// demo data when no roots are given, then serve the production server on
// 127.0.0.1 with a fresh access token, and print the one URL to open.
// Plain Node with no dependencies: it runs before `npm ci` has.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { withServerEnv } from "../lib/server-env.mjs";
import { nextBuildIsCurrent } from "./build-state.mjs";

const root = resolve(import.meta.dirname, "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const log = (line) => process.stderr.write(`${line}\n`);
// The demo scripts load lib barrels that import "server-only": an empty module outside Next.
const serverOnlyOff = ["--import", join(root, "scripts", "node-shim", "register.mjs")];

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    home: { type: "string" },
    logs: { type: "string" },
    state: { type: "string" },
    port: { type: "string" },
    "no-build": { type: "boolean" },
  },
});

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"], ...options });
  if (result.status !== 0) {
    log(`oda-admin: "${command} ${args.join(" ")}" failed (exit ${result.status ?? result.signal}).`);
    process.exit(1);
  }
}

// 1. Dependencies.
if (!existsSync(join(root, "node_modules", ".package-lock.json"))) {
  log("oda-admin: installing dependencies (npm ci)…");
  run("npm", ["ci", "--no-audit", "--no-fund"], { stdio: ["ignore", "ignore", "inherit"] });
}

// 2. A production build, redone when any source is newer than the last one.
const distDir = process.env.NEXT_DIST_DIR || ".next";
const stale = !nextBuildIsCurrent(root, distDir);
if (stale && !flags["no-build"]) {
  log("oda-admin: building the dashboard (next build)…");
  run(bin("next"), ["build"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

// 3. Roots: given ones, or generated demo data.
let liveChat = null;
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" };
const home = flags.home ?? process.env.ODA_HOME;
const logs = flags.logs ?? process.env.ODA_LOG_DIR;
if (home || logs) {
  if (home) env.ODA_HOME = resolve(home);
  if (logs) env.ODA_LOG_DIR = resolve(logs);
  env.ODA_DEMO = "0";
} else {
  const demo = join(root, ".oda-demo");
  if (!existsSync(join(demo, "home"))) {
    log("oda-admin: generating demo data in .oda-demo/…");
    run(bin("tsx"), [...serverOnlyOff, join(root, "scripts", "make-demo.ts"), "--out", demo, "--seed", "1"]);
  }
  env.ODA_HOME = join(demo, "home");
  env.ODA_LOG_DIR = join(demo, "logs");
  env.ODA_DEMO = "1";
  liveChat = "c-demo-being-written";
}
if (flags.state) env.ODA_ADMIN_STATE = resolve(flags.state);

// 4. A port on 127.0.0.1 and a fresh 256-bit token.
function portIsFree(port) {
  return new Promise((done) => {
    const server = createServer()
      .once("error", () => done(false))
      .listen(port, "127.0.0.1", () => server.close(() => done(true)));
  });
}
async function choosePort() {
  const wanted = Number(flags.port ?? process.env.ODA_ADMIN_PORT ?? 4377);
  if (flags.port || process.env.ODA_ADMIN_PORT) return wanted;
  for (let port = wanted; port < wanted + 50; port++) if (await portIsFree(port)) return port;
  return 0;
}
/** NODE_OPTIONS with the duplicate-Host guard preloaded (`server/access/host-guard.cjs`). */
function preloadHostGuard(options) {
  return [options, `--require=${JSON.stringify(join(root, "server", "access", "host-guard.cjs"))}`]
    .filter(Boolean)
    .join(" ");
}
const port = String(await choosePort());
env.ODA_ADMIN_PORT = port;
env.ODA_ADMIN_TOKEN = randomBytes(32).toString("base64url");

// 5. Serve, and print the URL once the server answers. The duplicate-Host guard is preloaded so it holds from
// the first request (Next's instrumentation hook runs after the server already answers).
const child = spawn(bin("next"), ["start", "-H", "127.0.0.1", "-p", port], {
  cwd: root,
  env: withServerEnv({ ...env, NODE_OPTIONS: preloadHostGuard(env.NODE_OPTIONS) }),
  stdio: ["ignore", "pipe", "pipe"],
});
// The build is also the installable package's standalone server, which `next
// start` warns about; it serves it all the same, so that one line is dropped.
child.stderr.on("data", (chunk) => {
  const text = String(chunk).replace(/^.*"next start" does not work with "output: standalone".*\n?/m, "");
  if (text) process.stderr.write(text);
});
let announced = false;
child.stdout.on("data", (chunk) => {
  if (!announced && /ready|started/i.test(String(chunk))) {
    announced = true;
    process.stdout.write(`Oda Admin is ready: open http://127.0.0.1:${port}/?token=${env.ODA_ADMIN_TOKEN}\n`);
  }
});
// With demo data, a stand-in for a running copy of Oda keeps writing one chat (a live lock, follow mode).
const writer = liveChat
  ? spawn(
      bin("tsx"),
      [...serverOnlyOff, join(root, "scripts", "demo", "live-writer.ts"), "--logs", env.ODA_LOG_DIR, "--id", liveChat],
      {
        cwd: root,
        stdio: ["ignore", "ignore", "inherit", "ipc"],
      },
    )
  : null;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    writer?.kill(signal);
    child.kill(signal);
  });
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
