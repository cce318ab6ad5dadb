import { spawn } from "node:child_process";
import { resolve } from "node:path";

/** `bin/oda-admin`, the CLI as a user starts it. */
export const CLI_BIN = resolve(import.meta.dirname, "../bin/oda-admin");

/** One run of the CLI in a child process: its exit code and everything it printed. */
export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

export interface CliRunOptions {
  /** Added to the environment; the Oda roots the parent may have set are always cleared. */
  env?: Record<string, string>;
  /** Node's own options, before the CLI's script (`["--import", …]`). */
  nodeArgs?: string[];
  /** The command that starts Node, when not Node itself (`["setpriv", "--reuid=65534", …]`). */
  wrapper?: string[];
  /** Kills the run and fails the test after this long: a bound on a hang, never a speed check. */
  hangMs?: number;
}

/** Runs `oda-admin ...args` in a real child process and collects its output. */
export function runCli(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  const { env = {}, nodeArgs = [], wrapper = [], hangMs = 100_000 } = options;
  const argv = [...wrapper, process.execPath, ...nodeArgs, CLI_BIN, ...args];
  return new Promise((done, fail) => {
    const child = spawn(argv[0] as string, argv.slice(1), {
      env: { ...process.env, ODA_HOME: "", ODA_LOG_DIR: "", ODA_ADMIN_STATE: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c;
    });
    child.stderr.on("data", (c: Buffer) => {
      err += c;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`oda-admin ${args.join(" ")} did not answer (hung):\n${out}\n${err}`));
    }, hangMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    });
  });
}

/** Runs `oda-admin ...argv` in this process (the CLI's own `main`), collecting what it prints. */
export async function runMain(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const { main } = await import("../cli/main");
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}
