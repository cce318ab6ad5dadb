/**
 * Kill safety of repairs: runs the real CLI's `repair apply` (one chat, or
 * `--all`) in a child process, SIGKILLs it at a random moment, runs `repair
 * resume`, and checks that every chat folder holds exactly one log, in the old
 * or the new form, decoding to exactly the original bytes; no temporary file,
 * no lock left; every journal settled. Each round sets the folder's form to
 * the other form than the first chat's log, so logs are converted back and forth. Used by `kill.test.ts` and
 * `bench/repair-kill.ts`.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../../cli/main";
import { decodeLog } from "../../lib/repair/convert";
import { listJournals } from "../../lib/repair/journal";
import { bundleChild as bundle } from "../../scripts/node-shim/bundle-child";
import { makeWorld, setCompress, writeChat } from "./testing";

/** What a run found: empty `failures` means every check held. */
export interface KillReport {
  kills: number;
  /** Rounds whose command finished before the kill came. */
  finished: number;
  resumed: { finished: number; rolledBack: number };
  failures: string[];
}

/** The group folder of the harness's chats (working folder /home/ana/reports). */
const GROUP = "--%2Fhome%2Fana%2Freports--";
const here = dirname(fileURLToPath(import.meta.url));

/** Bundles the child inside the project (so `node_modules` resolves from it) and returns its path. */
async function bundleChild(): Promise<{ file: string; remove: () => void }> {
  const dir = join(here, "..", "..", "node_modules", ".cache", `oda-repair-kill-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = await bundle({
    entryPoints: [join(here, "kill-child.ts")],
    outfile: join(dir, "kill-child.mjs"),
    packages: "external",
  });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs the child; resolves with true when it was killed, false when it ended first. */
function runChild(file: string, args: string[], killAfterMs: number): Promise<{ killed: boolean; ms: number }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [file, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let timer: NodeJS.Timeout | undefined;
    let readyAt = 0;
    let out = "";
    let err = "";
    p.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (!timer && out.startsWith("ready\n")) {
        readyAt = performance.now();
        timer = setTimeout(() => p.kill("SIGKILL"), killAfterMs);
      }
    });
    p.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    p.on("error", reject);
    p.on("exit", (code, signal) => {
      if (timer) clearTimeout(timer);
      const ms = readyAt ? performance.now() - readyAt : 0;
      if (signal === "SIGKILL") resolve({ killed: true, ms });
      else if (code === 0) resolve({ killed: false, ms });
      else reject(new Error(`the child failed (${code}): ${err.slice(0, 500)}`));
    });
  });
}

/** Options of {@link runKillHarness}. */
export interface KillOptions {
  kills: number;
  /** The first kill window after `ready` (then tuned to the command's length). */
  maxKillAfterMs?: number;
  seed?: number;
  /** Independent worlds run side by side (children start faster in parallel on a busy machine). */
  lanes?: number;
}

/** Runs `kills` kill-resume-check rounds, spread over `lanes` worlds. */
export async function runKillHarness(options: KillOptions): Promise<KillReport> {
  const child = await bundleChild();
  try {
    const lanes = Math.max(1, options.lanes ?? 1);
    const reports = await Promise.all(
      Array.from({ length: lanes }, (_, i) =>
        runLane(child.file, {
          ...options,
          kills: Math.floor(options.kills / lanes) + (i < options.kills % lanes ? 1 : 0),
          seed: (options.seed ?? 1) + i * 7919,
        }),
      ),
    );
    return {
      kills: reports.reduce((n, r) => n + r.kills, 0),
      finished: reports.reduce((n, r) => n + r.finished, 0),
      resumed: {
        finished: reports.reduce((n, r) => n + r.resumed.finished, 0),
        rolledBack: reports.reduce((n, r) => n + r.resumed.rolledBack, 0),
      },
      failures: reports.flatMap((r) => r.failures),
    };
  } finally {
    child.remove();
  }
}

async function runLane(childFile: string, options: KillOptions): Promise<KillReport> {
  const world = makeWorld(false);
  const report: KillReport = { kills: 0, finished: 0, resumed: { finished: 0, rolledBack: 0 }, failures: [] };
  let seed = options.seed ?? 1;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  try {
    const ids = ["c-1", "c-2"];
    const original = new Map<string, Buffer>();
    for (const id of ids) {
      const dir = await writeChat(world.logs, id, { compress: false, turns: 150 });
      original.set(id, readFileSync(join(dir, "session.v4.jsonl")));
    }
    const roots = ["--home", world.home, "--logs", world.logs, "--state", world.state];
    // how long after `ready` kills may come: tuned to the command's length (a busy machine stretches it)
    let window = options.maxKillAfterMs ?? 150;
    for (let k = 0; report.kills < options.kills && report.failures.length < 5; k++) {
      // the form c-1 is not in now (a rolled-back round leaves it as it was)
      const compress = !readdirSync(join(world.logs, GROUP, "c-1")).includes("session.v4.jsonl.zstd");
      setCompress(world.home, compress);
      const args = k % 2 === 0 ? ["apply", "form:c-1"] : ["apply", "--all"];
      const run = await runChild(childFile, [...args, ...roots], Math.floor(random() * window));
      if (run.killed) report.kills++;
      else {
        report.finished++;
        // the command's length on this machine now: kills spread over it
        window = Math.max(5, run.ms * 1.2);
      }
      const outs: string[] = [];
      const code = await main(["repair", "resume", "--json", ...roots], {
        out: (t) => outs.push(t),
        err: () => undefined,
      });
      const resumed = JSON.parse(outs.join("")) as { repairs: { action: string; message?: string }[] };
      // a kill before the first journal write teaches that the command runs longer than the window
      if (run.killed && !resumed.repairs.length) window *= 1.25;
      for (const r of resumed.repairs) {
        if (r.action === "finished") report.resumed.finished++;
        else if (r.action === "rolled back") report.resumed.rolledBack++;
        else report.failures.push(`round ${k}: resume ${r.action}: ${r.message ?? ""}`);
      }
      if (code !== 0) report.failures.push(`round ${k}: repair resume exited with ${code}`);
      await checkChats(world.logs, original, `round ${k}`, report.failures);
      for (const j of listJournals(world.state))
        if (j.phase !== "done" && j.phase !== "rolled-back")
          report.failures.push(`round ${k}: journal ${j.id} is ${j.phase}`);
    }
  } finally {
    world.remove();
  }
  return report;
}

/** Every chat folder: exactly one log, decoding to the original bytes; no temporary file, no lock. */
async function checkChats(logs: string, original: Map<string, Buffer>, at: string, failures: string[]) {
  const group = join(logs, GROUP);
  for (const [id, bytes] of original) {
    const dir = join(group, id);
    const names = readdirSync(dir);
    const extra = names.filter((n) => n !== "session.cache.json" && !n.startsWith("session.v4.jsonl"));
    if (extra.length) failures.push(`${at}: ${id} holds ${extra.join(", ")}`);
    const logsHere = names.filter((n) => n === "session.v4.jsonl" || n === "session.v4.jsonl.zstd");
    if (logsHere.length !== 1) {
      failures.push(`${at}: ${id} holds ${logsHere.length} logs: ${names.join(", ")}`);
      continue;
    }
    const name = logsHere[0] as string;
    const decoded = await decodeLog(join(dir, name), name.endsWith(".zstd")).catch((e: Error) => e);
    if (decoded instanceof Error) failures.push(`${at}: ${id}/${name} does not decode: ${decoded.message}`);
    else if (!decoded.data.equals(bytes)) failures.push(`${at}: ${id}/${name} does not decode to the original lines`);
  }
}
