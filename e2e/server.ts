import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { withServerEnv } from "../lib/server-env.mjs";

const root = resolve(import.meta.dirname, "..");

/** A production server of the dashboard over the given roots, for one test. */
export interface RunningServer {
  baseURL: string;
  port: string;
  token: string;
  /** The server process (its /proc status gives the peak RSS). */
  pid: number;
  stop: () => Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/** Starts `next start` on 127.0.0.1 with a fresh token, resolving once it answers. */
export async function startServer(
  roots: { home: string; logs: string; state: string; demo?: boolean },
  /** More environment, e.g. `ODA_ADMIN_BUNDLE` for a server over an unpacked support bundle. */
  extraEnv: Record<string, string> = {},
  /** Run the server as this user and group (a test running as root, over files that user may not read). */
  as?: { uid: number; gid: number },
) {
  const port = String(await freePort());
  const token = randomBytes(32).toString("base64url");
  const child: ChildProcess = spawn(
    join(root, "node_modules", ".bin", "next"),
    ["start", "-H", "127.0.0.1", "-p", port],
    {
      cwd: root,
      env: withServerEnv({
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        ODA_HOME: roots.home,
        ODA_LOG_DIR: roots.logs,
        ODA_ADMIN_STATE: roots.state,
        ODA_DEMO: roots.demo ? "1" : "0",
        ODA_ADMIN_PORT: port,
        ODA_ADMIN_TOKEN: token,
        // As `npm start` does (scripts/start.mjs): the duplicate-Host guard holds from the first request.
        NODE_OPTIONS: [
          process.env.NODE_OPTIONS,
          `--require=${JSON.stringify(join(root, "server", "access", "host-guard.cjs"))}`,
        ]
          .filter(Boolean)
          .join(" "),
        ...extraEnv,
      }),
      stdio: ["ignore", "pipe", "pipe"],
      ...(as ? { uid: as.uid, gid: as.gid } : {}),
    },
  );
  let output = "";
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`next start did not become ready:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (/ready/i.test(output)) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`next start exited with ${code}:\n${output}`));
    });
  });
  const server: RunningServer = {
    baseURL: `http://127.0.0.1:${port}`,
    port,
    token,
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 3_000).unref();
      }),
  };
  return server;
}
