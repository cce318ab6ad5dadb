/**
 * Lost updates across processes: pairs of Oda Admin processes save the same
 * memory at the same instant (CLI against CLI, and a long-lived "server"
 * process against the CLI), then every text a process was told was saved
 * must be the current text or a version, and every refusal must be one of
 * the contract's sentences with exit code 1. Used by `race.test.ts` and
 * `bench/memory-race.ts`.
 *
 * The same instant: each CLI process reads its text with `--text-file` from
 * a FIFO, so it starts, loads everything and then blocks on the read; the
 * harness releases every side of a pair at once by writing the texts (and
 * sending the server its command) in one synchronous burst.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createMemory, findMemory, listVersions, MESSAGES, writeSettings } from "../../lib/memory/index";
import { bundleChild } from "../../scripts/node-shim/bundle-child";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");

/** What a run found: empty `lost` and `badRefusals` mean every check held. */
export interface RaceReport {
  pairs: number;
  saved: number;
  refused: number;
  lost: string[];
  badRefusals: string[];
}

/** Refusals a racing save may get. */
const REFUSALS: readonly string[] = [MESSAGES.conflict, MESSAGES.busy];

/**
 * Bundles the CLI (`cli/main.ts`, as `bin/oda-admin` runs it) and the race
 * server into plain ESM beside `node_modules`, so a process starts in a tenth
 * of the time `tsx` needs to compile the TypeScript on every start; packages
 * stay external and load from `node_modules` as they do for `bin/oda-admin`.
 */
export async function bundleRaceProcesses(): Promise<{ cli: string; server: string; dir: string }> {
  const dir = await mkdtemp(join(ROOT, "node_modules", ".cache-oda-race-"));
  const cli = join(dir, "cli.mjs");
  const server = join(dir, "server.mjs");
  await Promise.all([
    bundleChild({
      packages: "external",
      stdin: {
        contents: `import { main } from "./cli/main.ts";\nprocess.exitCode = await main(process.argv.slice(2));\n`,
        resolveDir: ROOT,
        loader: "ts",
      },
      outfile: cli,
    }),
    bundleChild({ packages: "external", entryPoints: [join(HERE, "race-server.ts")], outfile: server }),
  ]);
  return { cli, server, dir };
}

/** A long-lived server process: one JSON command per line in, one JSON answer per line out. */
export class RaceServer {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<number, (answer: Record<string, unknown>) => void>();
  private next = 0;

  constructor(bundle: string, home: string) {
    this.child = spawn(process.execPath, [bundle, home], { stdio: ["pipe", "pipe", "inherit"] });
    let buffer = "";
    this.child.stdout?.on("data", (d: Buffer) => {
      buffer += d.toString();
      for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
        const answer = JSON.parse(buffer.slice(0, i)) as Record<string, unknown>;
        buffer = buffer.slice(i + 1);
        this.waiting.get(answer.n as number)?.(answer);
        this.waiting.delete(answer.n as number);
      }
    });
  }

  /** Sends a command now; resolves with its answer. */
  send(command: Record<string, unknown>): Promise<Record<string, unknown>> {
    const n = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(n, resolve);
      this.child.stdin?.write(`${JSON.stringify({ ...command, n })}\n`);
    });
  }

  stop(): void {
    this.child.stdin?.end();
    this.child.kill();
  }
}

interface Outcome {
  text: string;
  ok: boolean;
  message: string;
  code: number | null;
}

/** Starts `oda-admin memory set` with its text coming from a FIFO; `release` later writes the text. */
function startCli(cli: string, home: string, fifo: string, id: string, text: string, expect?: string) {
  execFileSync("mkfifo", [fifo]);
  const args = [cli, "--home", home, "memory", "set", id, "--text-file", fifo, ...(expect ? ["--expect", expect] : [])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const done = new Promise<Outcome>((resolve) =>
    child.on("exit", (code) => resolve({ text, ok: code === 0, message: out.trim(), code })),
  );
  return { done, fifo, text };
}

/** Waits until the CLI has opened its FIFO (a non-blocking open for writing fails until a reader has it). */
async function openWhenRead(fifo: string): Promise<number> {
  for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
    try {
      return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENXIO") throw error;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

async function racePair(
  tools: { cli: string; server: RaceServer | null },
  home: string,
  dir: string,
  id: string,
  tag: string,
  expect: boolean,
  report: RaceReport,
): Promise<void> {
  const sha = expect ? (await findMemory(home, null, id))?.sha256 : undefined;
  const a = startCli(tools.cli, home, join(dir, `${tag}-a`), id, `${tag} from the CLI`, sha);
  const b = tools.server ? null : startCli(tools.cli, home, join(dir, `${tag}-b`), id, `${tag} from another CLI`, sha);
  const fds = await Promise.all([a, ...(b ? [b] : [])].map((c) => openWhenRead(c.fifo)));
  // the release: both sides in one synchronous burst
  const serverText = `${tag} from the server`;
  const serverDone = tools.server?.send({ id, text: serverText, ...(sha ? { expect: sha } : {}) });
  fds.forEach((fd, i) => {
    writeSync(fd, (i === 0 ? a : (b as typeof a)).text);
    closeSync(fd);
  });
  const outcomes = await Promise.all([a.done, ...(b ? [b.done] : [])]);
  if (serverDone) {
    const r = await serverDone;
    outcomes.push({ text: serverText, ok: r.ok === true, message: String(r.message ?? ""), code: r.ok ? 0 : 1 });
  }
  const current = await findMemory(home, null, id);
  const known = new Set([current?.ok ? current.text : "", ...(await listVersions(home, null, id)).map((v) => v.text)]);
  report.pairs++;
  for (const o of outcomes) {
    if (o.ok) {
      report.saved++;
      if (!known.has(o.text)) report.lost.push(`${tag}: "${o.text}" was saved, yet is neither current nor a version`);
    } else {
      report.refused++;
      if (o.code !== 1 || !REFUSALS.includes(o.message))
        report.badRefusals.push(`${tag}: "${o.text}" refused with exit ${o.code}: ${o.message}`);
    }
  }
}

/** Runs `cliPairs` CLI/CLI pairs and `serverPairs` server/CLI pairs, `parallel` pairs at a time (each its own memory). */
export async function runRaceHarness(options: {
  cliPairs: number;
  serverPairs: number;
  /** Both sides pass the sha256 they read first (`--expect`, the dashboard's expectedSha256). */
  expect?: boolean;
  parallel?: number;
}): Promise<RaceReport> {
  const base = await mkdtemp(join(tmpdir(), "oda-race-"));
  const home = join(base, "home");
  const bundle = await bundleRaceProcesses();
  const server = new RaceServer(bundle.server, home);
  const report: RaceReport = { pairs: 0, saved: 0, refused: 0, lost: [], badRefusals: [] };
  try {
    await writeSettings(home, { versionsKept: 100 });
    const jobs = [
      ...Array.from({ length: options.cliPairs }, (_, i) => ({ tag: `cli${i}`, server: false })),
      ...Array.from({ length: options.serverPairs }, (_, i) => ({ tag: `srv${i}`, server: true })),
    ];
    const worker = async () => {
      for (let job = jobs.shift(); job; job = jobs.shift()) {
        const { memory } = await createMemory(home, null, { title: job.tag, text: "start" });
        const tools = { cli: bundle.cli, server: job.server ? server : null };
        await racePair(tools, home, base, memory?.id as string, job.tag, options.expect === true, report);
      }
    };
    await Promise.all(Array.from({ length: options.parallel ?? 2 }, worker));
  } finally {
    server.stop();
    await rm(base, { recursive: true, force: true });
    await rm(bundle.dir, { recursive: true, force: true });
  }
  return report;
}
