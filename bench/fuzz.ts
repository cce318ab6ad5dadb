/**
 * `npm run bench:fuzz [-- --inputs 10000] [-- --seed N] [-- --no-server] [-- --log c-long-line] [-- --vanish-chats 1500]`:
 * every fuzz module with the full count (at least 10,000 inputs in all), then
 * the vanishing case (`bench/vanish.ts`: a bundle of every chat while two
 * chat folders in five are deleted), then the production
 * server (needs `next build`) over the issue's hostile logs — 5 GB of zeros,
 * 3 GB of newlines, a 200 MB line, a 2 MB line in a million 2-byte zstd frames (issue 24) — asked for the chat list, each chat page,
 * lines and downloads while another page is pinged every 20 ms: one server per
 * log, then all at once with the chat list's index refresh. Prints each run's
 * peak RSS (VmHWM; a single log must stay under 400 MB), its longest event-loop
 * stall (measured inside the server, `instrumentation.ts`) and the slowest
 * ping seen from outside.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ISSUE_SIZES, makeHostileLogs } from "../e2e/hostile-logs";
import { startServer } from "../e2e/server";
import type { LoopReport } from "../server/views/loop-report";
import { writeTinyFrameLog } from "../test-support/chats/testing";
import { runVanishing } from "./vanish";

/** The fuzz modules (the fuzz convention): one line each; a module not present yet is skipped. */
const MODULES = [
  { file: "test-support/chats/fuzz-logs.ts", fn: "fuzzLogs" },
  { file: "test-support/memory/fuzz.ts", fn: "fuzzMemory" },
  { file: "test-support/chats/fuzz-folder.ts", fn: "fuzzFolder" },
];

type Fuzz = (runs: number, seed?: number) => Promise<{ inputs: number }>;
const root = resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    inputs: { type: "string" },
    seed: { type: "string" },
    "no-server": { type: "boolean" },
    log: { type: "string" },
    "vanish-chats": { type: "string" },
  },
});
const log = (s: string) => console.log(s);

async function runFuzz(total: number): Promise<number> {
  const present = MODULES.filter((m) => existsSync(join(root, m.file)));
  const runs = Math.ceil(total / Math.max(present.length, 1));
  let inputs = 0;
  for (const m of MODULES) {
    if (!present.includes(m)) {
      log(`  ${m.fn}: skipped (${m.file} is not here yet)`);
      continue;
    }
    const fuzz = (await import(join(root, m.file)))[m.fn] as Fuzz;
    const t = performance.now();
    // One seed per module, printed first, so a failure can be replayed with `-- --seed <n>`.
    const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
    log(`  ${m.fn}: seed ${seed}`);
    const result = await fuzz(runs, seed);
    inputs += result.inputs;
    log(`  ${m.fn}: ${result.inputs} inputs in ${((performance.now() - t) / 1000).toFixed(1)} s, no crash, no hang`);
  }
  log(`fuzz: ${inputs} inputs in all`);
  return inputs;
}

/** Reads a response to its end, counting bytes; a body cut by the server counts as "cut". */
async function drain(res: Response): Promise<{ bytes: number; cut: boolean; head: string }> {
  let bytes = 0;
  let head = "";
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (head.length < 4000) head += Buffer.from(chunk).toString("utf8", 0, Math.min(chunk.length, 4000));
      bytes += chunk.length;
    }
    return { bytes, cut: false, head };
  } catch {
    return { bytes, cut: true, head };
  }
}

function peakRss(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return status.match(/VmHWM:\s*(\d+) kB/)?.[1] ?? "?";
}

/** What one server run measured. */
interface Measured {
  ok: boolean;
  rssMb: number;
  /** The longest stall while the requests ran, and since the server started. */
  stallMs: number | null;
  startStallMs: number | null;
  worstPingMs: number;
}

/** Starts a server over `roots`, asks it for `paths` at once while pinging /memory, and stops it. */
async function exercise(roots: { home: string; logs: string; state: string }, paths: string[]): Promise<Measured> {
  const loopFile = join(roots.state, `loop-${Date.now()}.json`);
  process.env.ODA_LOOP_REPORT = loopFile;
  const server = await startServer(roots);
  const headers = { authorization: `Bearer ${server.token}` };
  // Warmed up (Next loads the app's modules on first use), then the loop report's window starts.
  await drain(await fetch(`${server.baseURL}/memory`, { headers }));
  process.kill(server.pid, "SIGUSR2");
  let ok = true;
  try {
    let pinging = true;
    let worstPing = 0;
    let pings = 0;
    const pinger = (async () => {
      while (pinging) {
        const start = performance.now();
        const res = await fetch(`${server.baseURL}/memory`, { headers });
        await drain(res);
        worstPing = Math.max(worstPing, performance.now() - start);
        pings++;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const t = performance.now();
    const results = await Promise.all(
      paths.map(async (path) => {
        const start = performance.now();
        const res = await fetch(`${server.baseURL}${path}`, { headers, signal: AbortSignal.timeout(300_000) });
        const body = await drain(res);
        const problem = body.head.match(/(decodes to more than[^"]*|Line \d+ [^"]*shown truncated[^"]*)/)?.[1];
        return { path, status: res.status, ms: performance.now() - start, ...body, problem };
      }),
    );
    // The chat list's background index refresh runs on: wait for it, so its stalls and memory count too.
    if (paths.includes("/api/chats")) {
      const indexFile = join(roots.state, "index.sqlite");
      for (let i = 0; i < 600 && !(await indexRefreshed(indexFile)); i++) await new Promise((r) => setTimeout(r, 500));
    }
    pinging = false;
    await pinger;
    for (const r of results) {
      if (r.status >= 500) ok = false;
      log(
        `  ${r.path.padEnd(48)} ${r.status} ${(r.ms / 1000).toFixed(1).padStart(6)} s ${String(r.bytes).padStart(11)} bytes${r.cut ? " (cut at the limit)" : ""}${r.problem ? `  “${r.problem.slice(0, 90)}…”` : ""}`,
      );
    }
    log(`  answered in ${((performance.now() - t) / 1000).toFixed(1)} s; ${pings} pings of /memory every 20 ms`);
    const loop = existsSync(loopFile) ? (JSON.parse(readFileSync(loopFile, "utf8")) as LoopReport) : null;
    return {
      ok,
      rssMb: Number(peakRss(server.pid)) / 1024,
      stallMs: loop?.maxStallMs ?? null,
      startStallMs: loop?.maxStallSinceStartMs ?? null,
      worstPingMs: worstPing,
    };
  } finally {
    await server.stop();
  }
}

/** True once the index holds a finished refresh (read with the sqlite3 of better-sqlite3). */
async function indexRefreshed(file: string): Promise<boolean> {
  if (!existsSync(file)) return false;
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT value FROM meta WHERE key = 'refreshedAt'").get() !== undefined;
  } catch {
    return false;
  } finally {
    db.close();
  }
}

/** c-tiny-frames: a valid log whose 2 MB second line is cut into 2-byte raw frames, a million frames in 11 MB. */
function writeTinyFrames(logs: string): void {
  const dir = join(logs, "_no-cwd", "c-tiny-frames");
  mkdirSync(dir, { recursive: true });
  const head = '{"time":"2026-11-29T18:24:08.123Z","role":"user","text":"hello"}\n';
  const content = Buffer.alloc(2_000_000, 0x61);
  content.write(head, 0);
  content.write('{"time":"2026-11-29T18:25:00.000Z","role":"assistant","text":"', head.length);
  content.write('"}\n', content.length - 3);
  writeTinyFrameLog(join(dir, "session.jsonl.zstd"), content);
}

function chatPaths(id: string): string[] {
  return [
    `/chats/${id}`,
    `/chats/${id}/lines?from=1&count=50`,
    `/chats/${id}/lines?from=-49&count=50`,
    `/chats/${id}/status`,
    `/chats/${id}/download?form=decompressed`,
    ...(id === "c-long-line" ? ["/chats/c-long-line/download?line=2"] : []),
  ];
}

const report = (what: string, m: Measured) =>
  log(
    `server, ${what}: peak RSS (VmHWM) ${m.rssMb.toFixed(0)} MB, longest event-loop stall inside the server ${m.stallMs ?? "?"} ms (${m.startStallMs ?? "?"} ms with its start-up), slowest /memory ping ${m.worstPingMs.toFixed(0)} ms`,
  );

/**
 * One server per hostile log (its peak RSS is that log's: the issue's bound is
 * 400 MB for any single log), then one server for all of them at once with the
 * chat list and its background index refresh.
 */
async function runServer(): Promise<boolean> {
  const dist = process.env.NEXT_DIST_DIR || ".next";
  if (!existsSync(join(root, dist, "BUILD_ID"))) {
    log(`server: no production build in ${dist}; run \`npx next build\` first.`);
    return false;
  }
  const dir = mkdtempSync(join(tmpdir(), "oda-bench-fuzz-"));
  const roots = { home: join(dir, "home"), logs: join(dir, "logs"), state: join(dir, "state") };
  await Promise.all(Object.values(roots).map((p) => mkdir(p, { recursive: true })));
  const t = performance.now();
  await makeHostileLogs(roots.logs, ISSUE_SIZES);
  writeTinyFrames(roots.logs);
  log(`server: hostile logs written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const ids = ["c-zeros", "c-newlines", "c-long-line", "c-tiny-frames", "c-ok"];
  let ok = true;
  const lines: [string, Measured][] = [];
  try {
    // `--log c-long-line`: that log alone (to profile one case).
    for (const id of values.log ? [values.log] : ids) {
      log(`server, ${id} alone:`);
      const m = await exercise(roots, chatPaths(id));
      lines.push([`${id} alone`, m]);
      ok &&= m.ok && m.rssMb < 400;
    }
    if (!values.log) {
      log("server, all hostile logs at once (the chat list, its index refresh, every chat's requests):");
      // A fresh state folder: the index is built from nothing while the chats are read.
      rmSync(roots.state, { recursive: true, force: true });
      await mkdir(roots.state, { recursive: true });
      const all = await exercise(roots, ["/api/chats", ...ids.flatMap(chatPaths)]);
      lines.push(["all at once", all]);
      ok &&= all.ok;
    }
    log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    for (const [what, m] of lines) report(what, m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return ok;
}

const inputs = await runFuzz(Number(values.inputs ?? 10_000));
const vanished = await runVanishing(Number(values["vanish-chats"] ?? 1500), log);
const served = values["no-server"] ? true : await runServer();
process.exitCode = inputs > 0 && vanished && served ? 0 : 1;
