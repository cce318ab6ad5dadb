#!/usr/bin/env node
// `npm test`'s packaging step: packs the repository, installs the tarball into
// a temporary npm prefix as an administrator would (npm fetches and compiles
// the runtime dependencies; --prefer-offline uses the cache `npm ci` filled),
// then runs the installed `oda-admin`: `serve` over generated data and over
// demo data (token 200, no token 401, Ctrl+C leaves no process), and `doctor
// --json` over the same data, compared with the repository's own CLI; then a
// support bundle made, served with --bundle and opened in a running dashboard
// (check-bundle.mjs).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SERVER_MALLOC_TUNABLES, SERVER_NODE_OPTION, SERVER_THREAD_POOL } from "../../lib/server-env.mjs";
import { checkBundle } from "./check-bundle.mjs";
import { descendants, get, isAlive, listeners, waitFor } from "./processes.mjs";

const root = resolve(import.meta.dirname, "..", "..");
const tmp = mkdtempSync(join(tmpdir(), "oda-admin-package-"));
// To debug the checks without packing and installing again, point this at a prefix installed before.
const reused = process.env.ODA_ADMIN_PACKAGE_PREFIX;
const prefix = reused ? resolve(reused) : join(tmp, "prefix");
const installed = join(prefix, "lib", "node_modules", "oda-admin");
const odaAdmin = join(prefix, "bin", "oda-admin");
const started = Date.now();
const ok = (line) => process.stdout.write(`  ✓ ${line} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 << 20, ...options });
  if (result.error) throw result.error;
  return result;
}

function mustRun(command, args, options = {}) {
  const result = run(command, args, { stdio: ["ignore", "pipe", "inherit"], ...options });
  assert.equal(result.status, 0, `${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal})`);
  return result.stdout;
}

/** The status line a request with two Host headers (the good one first) gets. */
function twoHosts(port) {
  return new Promise((done, fail) => {
    let reply = "";
    const socket = connect(port, "127.0.0.1", () =>
      socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`),
    );
    socket.on("data", (chunk) => {
      reply += chunk;
    });
    socket.on("end", () => done(reply));
    socket.on("error", fail);
  });
}

/** Starts the installed `oda-admin serve`, checks access, then stops it with SIGINT and checks nothing is left. */
async function checkServe(args, expectedChildren) {
  const serve = spawn(odaAdmin, ["serve", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  serve.stdout.on("data", (chunk) => {
    out += chunk;
  });
  serve.stderr.on("data", (chunk) => {
    err += chunk;
  });
  const exited = new Promise((done) => serve.once("exit", (code, signal) => done(code ?? signal)));
  try {
    const url = await waitFor(
      "the URL line",
      () => {
        if (serve.exitCode !== null) throw new Error(`serve ended early (exit ${serve.exitCode}):\n${err}`);
        return out.match(/^Oda Admin is ready: open (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]{43}))$/m);
      },
      120_000,
    );
    const [, withToken, port, token] = url;
    assert.notEqual(port, "0", "serve prints the real port, not 0");
    const base = `http://127.0.0.1:${port}`;
    const bound = listeners(Number(port));
    if (bound) assert.deepEqual(bound, ["127.0.0.1"], "the server listens on 127.0.0.1 only");
    assert.equal((await get(`${base}/`)).status, 401, "/ without the token");
    assert.match(await twoHosts(Number(port)), /^HTTP\/1\.1 403 /, "a request with two Host headers");
    const swap = await get(withToken);
    assert.equal(swap.status, 303, "the printed URL swaps the token for a cookie");
    const cookie = String(swap.headers["set-cookie"]).split(";")[0];
    const page = await get(`${base}/`, { cookie });
    assert.equal(page.status, 200, "/ with the token's cookie");
    assert.match(page.body, /<html/);
    const authorization = `Bearer ${token}`;
    assert.equal((await get(`${base}/`, { authorization })).status, 200, "/ with the token");
    // The chat list goes through the index (better-sqlite3) and the logs (zstd): the native modules load.
    const chats = await get(`${base}/api/chats`, { authorization });
    assert.equal(chats.status, 200, "/api/chats with the token");
    // Rows go as arrays, each starting with the chat's id (lib/chats/list-wire.ts).
    assert.match(chats.body, /\["c-demo-being-written",/, "/api/chats lists the demo's chat being written");
    const children = await waitFor("the server and its helpers", () => {
      const found = descendants(serve.pid);
      return found.length >= expectedChildren && found;
    });
    // The server runs with its own libuv pool size, malloc tunables and V8's gc exposed (lib/server-env.mjs),
    // unless the person set them.
    const environs = children.map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, "utf8");
      } catch {
        return "";
      }
    });
    const valuesOf = (name) => environs.map((e) => new RegExp(`(?:^|\\0)${name}=([^\\0]*)`).exec(e)?.[1]);
    const pools = valuesOf("UV_THREADPOOL_SIZE");
    assert.ok(
      pools.includes(SERVER_THREAD_POOL),
      `the server runs with UV_THREADPOOL_SIZE=${SERVER_THREAD_POOL}: ${pools}`,
    );
    // glibc parses GLIBC_TUNABLES in the process's own copy of its environment, the one /proc shows, and
    // Debian's 2.36 leaves a NUL where each ':' was (getenv still gives the whole value): the tunables
    // that follow the first read back as entries of their own, and are joined again here.
    const tunables = environs.map((e) => {
      const entries = e.split("\0");
      const at = entries.findIndex((entry) => entry.startsWith("GLIBC_TUNABLES="));
      if (at < 0) return undefined;
      const rest = entries.slice(at + 1);
      const end = rest.findIndex((entry) => !/^glibc\.[\w.]+=/.test(entry));
      const more = end < 0 ? rest : rest.slice(0, end);
      return [entries[at].slice("GLIBC_TUNABLES=".length), ...more].join(":");
    });
    assert.ok(
      tunables.includes(SERVER_MALLOC_TUNABLES),
      `the server runs with GLIBC_TUNABLES=${SERVER_MALLOC_TUNABLES}: ${tunables}`,
    );
    const options = valuesOf("NODE_OPTIONS");
    assert.ok(
      options.some((o) => o?.split(/\s+/).includes(SERVER_NODE_OPTION)),
      `the server runs with ${SERVER_NODE_OPTION} in NODE_OPTIONS: ${options}`,
    );
    serve.kill("SIGINT");
    const stopped = await Promise.race([
      exited,
      new Promise((done) => setTimeout(done, 30_000, "still running").unref()),
    ]);
    assert.equal(stopped, 0, `serve's exit after SIGINT\n${err}`);
    await waitFor("every child to be gone", () => children.every((pid) => !isAlive(pid)), 10_000);
    assert.equal((await get(`${base}/`)).status, 0, "nothing answers on the port any more");
    return { port, children: children.length };
  } finally {
    if (serve.exitCode === null) serve.kill("SIGKILL");
  }
}

try {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  if (!reused) {
    mustRun("npm", ["pack", "--pack-destination", tmp, "--silent"], { cwd: root });
    const tarball = join(
      tmp,
      readdirSync(tmp).find((name) => name.endsWith(".tgz")),
    );
    assert.equal(tarball, join(tmp, `oda-admin-${pkg.version}.tgz`));
    const files = mustRun("tar", ["-tzf", tarball]).trim().split("\n");
    for (const needed of ["bin/oda-admin", "dist/cli/main.mjs", "dist/server/server.js", "dist/server/.next/BUILD_ID"])
      assert.ok(files.includes(`package/${needed}`), `the tarball holds ${needed}`);
    const unwanted = files.filter((f) =>
      /^package\/(lib|cli|app|components|server|e2e|bench|docs|scripts)\/|\.tsx?$|node_modules\/|\.next\/cache\//.test(
        f,
      ),
    );
    assert.deepEqual(unwanted, [], "the tarball holds no sources, tests, benches, docs, node_modules or build cache");
    ok(`packed ${tarball} (${files.length} files)`);

    mustRun("npm", ["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", tarball], {
      stdio: ["ignore", "ignore", "inherit"],
      // better-sqlite3 compiles from source where no prebuilt binary can be fetched (CI reaches only the
      // npm registry): on every core.
      env: { ...process.env, JOBS: "max" },
    });
    ok(`installed into ${prefix}`);
  }
  assert.equal(mustRun(odaAdmin, ["--version"]).trim(), pkg.version);

  // Data made by the installed package's own (bundled) demo generator.
  const data = join(tmp, "data");
  mustRun(process.execPath, [join(installed, "dist", "cli", "make-demo.mjs"), "--out", data, "--seed", "7"]);
  const roots = ["--home", join(data, "home"), "--logs", join(data, "logs")];
  const given = await checkServe([...roots, "--state", join(tmp, "state")], 1);
  ok(`serve over --home/--logs on port ${given.port}: 401 without the token, 200 with it; SIGINT left no process`);
  const demo = await checkServe(["--state", join(tmp, "demo-state")], 2);
  ok(`serve with demo data on port ${demo.port} (server and live writer); SIGINT left no process`);

  const doctor = run(odaAdmin, ["doctor", "--json", ...roots]);
  const report = JSON.parse(doctor.stdout);
  assert.equal(doctor.status, report.ok ? 0 : 1, "doctor exits 1 exactly when it reports problems");
  assert.ok(
    report.sections.some((s) => s.problems.length),
    "the demo's planted problems are found",
  );
  const fromRepo = run(process.execPath, [join(root, "bin", "oda-admin"), "doctor", "--json", ...roots], { cwd: root });
  assert.deepEqual(report, JSON.parse(fromRepo.stdout), "the installed doctor reports what the repository's does");
  ok("doctor --json over the same data matches the repository's CLI");
  await checkBundle({ odaAdmin, roots, tmp, ok });
} finally {
  // `rm -rf` is much faster than rmSync over the ~400 MB the install holds.
  if (process.platform === "win32" || run("rm", ["-rf", tmp]).status !== 0)
    rmSync(tmp, { recursive: true, force: true });
}
