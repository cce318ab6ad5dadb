import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { OdaError } from "../../lib/errors";
import { withServerEnv } from "../../lib/server-env.mjs";
import { type Command, type CommandContext, flagString } from "../context";
import { readPackage } from "../package-root";
import { choosePort, openBrowser } from "./serve-system";

/** The demo chat a stand-in for a running Oda keeps writing (as under `npm start`). */
const LIVE_CHAT = "c-demo-being-written";
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
// Preloaded into the server: when this CLI dies without forwarding a signal
// (SIGKILL), the IPC channel closes and the server goes with it.
const FOLLOW_PARENT = "data:text/javascript,process.on('disconnect',()=>process.exit(0))";

/** The roots to serve, as the environment the server reads; demo data is made on first use. */
async function rootsEnv(
  ctx: CommandContext,
  root: string,
): Promise<{ env: Record<string, string>; liveLogs: string | null }> {
  const { home, logs, state } = ctx.roots;
  const bundle = flagString(ctx, "bundle");
  if (bundle !== undefined) return { env: await bundleEnv(ctx, bundle), liveLogs: null };
  if (home || logs) {
    const env: Record<string, string> = { ODA_DEMO: "0" };
    if (home) env.ODA_HOME = home;
    if (logs) env.ODA_LOG_DIR = logs;
    if (state) env.ODA_ADMIN_STATE = state;
    return { env, liveLogs: null };
  }
  const stateDir = state ?? join(homedir(), ".oda-admin");
  const demo = join(stateDir, "demo");
  if (!existsSync(join(demo, "home"))) {
    ctx.err(`oda-admin: generating demo data in ${demo}…`);
    // In a process of its own, as under `npm start`: the demo leaves its live
    // chat's lock to a writer that has exited, which the live writer takes over.
    const maker = spawn(process.execPath, [join(root, "dist", "cli", "make-demo.mjs"), "--out", demo, "--seed", "1"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    const code = await new Promise<number | null>((done) => maker.once("exit", done));
    if (code !== 0) throw new OdaError("io", `The demo data could not be generated in ${demo} (exit ${code}).`);
  }
  const env = { ODA_HOME: join(demo, "home"), ODA_LOG_DIR: join(demo, "logs"), ODA_ADMIN_STATE: stateDir };
  return { env: { ...env, ODA_DEMO: "1" }, liveLogs: env.ODA_LOG_DIR };
}

/** `--bundle FILE`: verified and unpacked into the state folder first; the server serves it read-only. */
async function bundleEnv(ctx: CommandContext, file: string): Promise<Record<string, string>> {
  const { unpackBundle } = await import("../../lib/bundle/unpack");
  const { home, state } = ctx.roots;
  const stateDir = state ?? (home ? join(home, ".oda-admin") : join(homedir(), ".oda-admin"));
  ctx.err(`oda-admin: checking and unpacking ${file}…`);
  const { ratioFlag } = await import("./bundle");
  const opened = await unpackBundle(resolve(file), stateDir, { maxRatio: ratioFlag(ctx) });
  return {
    ODA_DEMO: "0",
    ODA_HOME: opened.home,
    ODA_LOG_DIR: opened.logs,
    ODA_ADMIN_STATE: opened.state,
    ODA_ADMIN_BUNDLE: opened.dir,
    ODA_ADMIN_BUNDLE_NAME: opened.name,
  };
}

/** Resolves once the server says it is ready; rejects when it ends before that. */
function whenReady(server: ChildProcess): Promise<void> {
  return new Promise((ready, fail) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk).slice(-4096);
      if (/ready/i.test(seen)) {
        server.stdout?.off("data", onData);
        server.off("exit", onExit);
        ready();
      }
    };
    const onExit = (code: number | null, signal: string | null) =>
      fail(new OdaError("io", `The dashboard's server stopped before it was ready (exit ${code ?? signal}).`));
    server.stdout?.on("data", onData);
    server.once("exit", onExit);
  });
}

/**
 * `oda-admin serve`: the prebuilt production server (`dist/server`) on
 * 127.0.0.1 with a fresh token, as `npm start` serves it but with no build.
 * It resolves when the server has stopped: after Ctrl+C (forwarded to the
 * server and the demo writer, waiting for both) or when the server fails.
 */
const serve: Command = async (ctx) => {
  const port = String(await choosePort(flagString(ctx, "port") ?? process.env.ODA_ADMIN_PORT));
  const { root } = readPackage();
  const serverJs = join(root, "dist", "server", "server.js");
  if (!existsSync(serverJs))
    throw new OdaError(
      "unusable",
      "The dashboard's server is not built here: run `npm run build:package` (or `npm start`) in the repository.",
    );
  const token = randomBytes(32).toString("base64url");
  const roots = await rootsEnv(ctx, root);
  const hostGuard = join(root, "dist", "server", "host-guard.cjs");
  const server = spawn(process.execPath, ["--require", hostGuard, "--import", FOLLOW_PARENT, serverJs], {
    env: withServerEnv({
      ...process.env,
      ...roots.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      HOSTNAME: "127.0.0.1",
      PORT: port,
      ODA_ADMIN_PORT: port,
      ODA_ADMIN_TOKEN: token,
    }),
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const children: ChildProcess[] = [server];
  const exited = new Promise<number>((done) => server.once("exit", (code) => done(code ?? 0)));
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of SIGNALS) process.on(signal, stop);
  try {
    await whenReady(server);
    // Next keeps logging to stdout; it is drained, not shown, as under `npm start`.
    server.stdout?.resume();
    const url = `http://127.0.0.1:${port}/?token=${token}`;
    ctx.out(`Oda Admin is ready: open ${url}`);
    if (ctx.flags.open === true && !openBrowser(url))
      ctx.err("oda-admin: no way to open a browser was found here; open the URL above.");
    const writer = join(root, "dist", "cli", "live-writer.mjs");
    if (roots.liveLogs && existsSync(writer) && !stopping) {
      const args = [writer, "--logs", roots.liveLogs, "--id", LIVE_CHAT];
      children.push(spawn(process.execPath, args, { stdio: ["ignore", "ignore", "inherit", "ipc"] }));
    }
    const code = await exited;
    const asked = stopping;
    stop("SIGTERM");
    await Promise.all(children.map(waitForExit));
    if (asked) return 0;
    ctx.err(`oda-admin: the dashboard's server stopped (exit ${code}).`);
    return code || 1;
  } catch (error) {
    const asked = stopping;
    stop("SIGTERM");
    await Promise.all(children.map(waitForExit));
    // Ctrl+C while the server was still starting is a stop, not a failure.
    if (asked) return 0;
    throw error;
  } finally {
    for (const signal of SIGNALS) process.off(signal, stop);
  }
};

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once("exit", () => done()));
}

/** `oda-admin serve`; `cli/registry.ts` holds its usage and options. */
export const serveRuns = { serve } satisfies Record<string, Command>;
