/**
 * The listing rows of issue 13 for `npm run bench:sessions`:
 *  - `oda-admin sessions list --json` in a new process (the CLI bundled as the package ships it, output to
 *    /dev/null) against a new process doing the plain read + JSON.parse of every `session.cache.json`
 *    (the same readdirs): wall and CPU (user + system), each a median of 3 alternating runs, and peak RSS;
 *  - for the record, the floor the contract sets under that ratio: a new process doing only the reads that
 *    `docs/file-contract.md` ("The chat list's checkpoint") makes every chat cost before its details may be
 *    served (the chat folder's listing for the newest log, the log's head, the tail hash, and the checkpoint
 *    read and parsed), with no checks and no output: once with the head decoded for its header (all the
 *    head bytes read, 256 decodes at a time; a listing decodes only the first frame, so this one can be
 *    slower than it), and once with no decode at all, a strict floor: no listing that meets the contract
 *    does less;
 *  - `/api/chats` first rows with the index fresh (`streamChatList`, the route's source): time to the first
 *    batch, and to the check's verdict.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { serverOnlyAlias } from "../scripts/node-shim/alias";

const root = process.cwd();

/**
 * The CLI bundled with esbuild as `scripts/pack/build.mjs` bundles it (plain JavaScript, no tsx at run time,
 * commands in chunks of their own), and a runner that calls its `main` as `bin/oda-admin` does.
 */
export async function bundleCli(out: string): Promise<string> {
  const dist = join(out, "dist");
  rmSync(dist, { recursive: true, force: true });
  const { build } = await import("esbuild");
  await build({
    absWorkingDir: root,
    // The reader and bundle threads beside the chunks that start them, as the package ships them: without
    // them the index build reads every chat on its writer's thread.
    entryPoints: {
      main: "cli/main.ts",
      "chunks/read-thread": "lib/search-index/read-thread-main.ts",
      "chunks/bundle-thread": "lib/bundle/bundle-thread-main.ts",
    },
    outdir: dist,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunks/[name]-[hash]",
    splitting: true,
    bundle: true,
    format: "esm",
    platform: "node",
    alias: serverOnlyAlias,
    target: "node20.9",
    external: ["better-sqlite3", "@mongodb-js/zstd"],
    banner: {
      js: "import { createRequire as __odaRequire } from 'node:module'; const require = __odaRequire(import.meta.url);",
    },
    logLevel: "warning",
  });
  // The native packages stay external: found through a link to the checkout's node_modules when `out` is
  // outside it (`bench:scale --out`).
  // A link left by another checkout, since removed, leads nowhere: replaced.
  const link = join(out, "node_modules");
  if (!existsSync(link)) {
    rmSync(link, { force: true });
    symlinkSync(join(root, "node_modules"), link);
  }
  const file = join(out, "oda-admin.mjs");
  writeFileSync(
    file,
    'const { main } = await import("./dist/main.mjs");\nprocess.exitCode = await main(process.argv.slice(2));\n',
  );
  return file;
}

/** The baseline's script: readdir of the folder and of each group, then readFileSync + JSON.parse of each checkpoint. */
const BASELINE = `import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
const dir = process.argv[2];
let n = 0;
for (const group of readdirSync(dir)) {
  if (group.startsWith(".")) continue;
  for (const chat of readdirSync(join(dir, group)))
    n += JSON.parse(readFileSync(join(dir, group, chat, "session.cache.json"), "utf8")).details.messages > 0 ? 1 : 0;
}
console.log(n);
`;

/**
 * The contract's reads alone (see above); with `--no-decode`, without decoding the head for its header.
 * Decodes run 256 at a time on the thread pool, more than any listing can batch.
 */
const FLOOR = `import { closeSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { decompress } from "@mongodb-js/zstd";
const dir = process.argv[2];
const decode = process.argv[3] !== "--no-decode";
const head = Buffer.alloc(16384);
let n = 0;
let pending = [];
const settle = async () => { for (const out of await Promise.all(pending)) n += out.length > 0 ? 1 : 0; pending = []; };
for (const group of readdirSync(dir)) {
  if (group.startsWith(".")) continue;
  for (const chat of readdirSync(join(dir, group))) {
    const folder = join(dir, group, chat);
    const log = readdirSync(folder).filter((name) => name.startsWith("session.") && name.endsWith(".zstd")).sort().pop();
    const fd = openSync(join(folder, log), "r");
    const got = readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    const cache = JSON.parse(readFileSync(join(folder, "session.cache.json"), "utf8"));
    const end = Math.min(got, cache.log.bytes);
    n += createHash("sha256").update(head.subarray(Math.max(0, end - 4096), end)).digest("hex") === cache.log.tailSha256 ? 1 : 0;
    if (decode) pending.push(decompress(Buffer.from(head.subarray(0, got))).catch(() => Buffer.alloc(0)));
    if (pending.length >= 256) await settle();
  }
}
await settle();
console.log(n);
`;

export interface Run {
  wall: number;
  cpu: number;
  rssMiB: number;
}

/** Runs a command under GNU time: wall and CPU seconds, peak RSS. */
export function timed(args: string[], env: NodeJS.ProcessEnv = process.env): Run {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %U %S %M", ...args], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  const last = r.stderr.trim().split("\n").pop() ?? "";
  const [wall, user, sys, kb] = last.split(" ").map(Number);
  if (r.status !== 0 || wall === undefined || Number.isNaN(wall))
    throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  return { wall, cpu: (user ?? 0) + (sys ?? 0), rssMiB: (kb ?? 0) / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** The `sessions list --json` rows: ours against the baseline, new processes, medians of 3. */
export async function benchListProcess(dir: string, chats: number, push: (line: string) => void): Promise<void> {
  if (!existsSync("/usr/bin/time")) {
    push("sessions list --json (new process): skipped, /usr/bin/time (GNU time) is not installed");
    return;
  }
  const out = join(root, "bench", "out", "cli");
  mkdirSync(out, { recursive: true });
  const cli = await bundleCli(out);
  const baseline = join(out, "baseline.mjs");
  writeFileSync(baseline, BASELINE);
  const floor = join(out, "floor.mjs");
  writeFileSync(floor, FLOOR);
  const base: Run[] = [];
  const ours: Run[] = [];
  // Warm the page cache alike for all: the floor reads every file either side reads (the log heads too).
  timed([process.execPath, floor, dir]);
  timed([process.execPath, baseline, dir]);
  const ourArgs = [process.execPath, cli, "sessions", "list", "--json", "--logs", dir];
  // 100,000 chats take minutes per run on a loaded machine: one run each there.
  const runs = chats >= 50_000 ? 1 : 3;
  for (let i = 0; i < runs; i++) {
    base.push(timed([process.execPath, baseline, dir]));
    ours.push(timed(ourArgs));
  }
  // The same with the list threads forced on and off, whatever the machine's load says (list-pool.ts).
  const threads = availableParallelism();
  const forced = (n: number) => timed(ourArgs, { ...process.env, ODA_ADMIN_LIST_THREADS: String(n) });
  const [one, many] = [forced(0), forced(threads)];
  const floorRuns = Array.from({ length: runs }, () => timed([process.execPath, floor, dir]));
  const readsRuns = Array.from({ length: runs }, () => timed([process.execPath, floor, dir, "--no-decode"]));
  const m = (runs: Run[], k: keyof Run) => median(runs.map((r) => r[k]));
  const target = chats >= 100_000 ? "target ≤ 2x, ≤ 150 MB" : "target ≤ 1.5x";
  const wallBase = m(base, "wall");
  for (const [name, r] of [
    [
      "for the record, the contract's reads alone, the head bytes decoded whole",
      { ...floorRuns[0], wall: m(floorRuns, "wall"), cpu: m(floorRuns, "cpu") } as Run,
    ],
    [
      "for the record, the same reads without any decode (a strict floor)",
      { ...readsRuns[0], wall: m(readsRuns, "wall"), cpu: m(readsRuns, "cpu") } as Run,
    ],
    ["no list thread", one],
    [`${threads} list threads`, many],
  ] as const)
    push(
      `  ${name}: wall ${r.wall.toFixed(2)} s = ${(r.wall / wallBase).toFixed(2)}x; CPU ${r.cpu.toFixed(2)} s = ${(r.cpu / m(base, "cpu")).toFixed(2)}x; peak RSS ${r.rssMiB.toFixed(0)} MiB`,
    );
  push(
    `sessions list --json, ${chats} chats, new process: wall ${m(ours, "wall").toFixed(2)} s vs ${m(base, "wall").toFixed(2)} s = ${(m(ours, "wall") / m(base, "wall")).toFixed(2)}x; CPU ${m(ours, "cpu").toFixed(2)} s vs ${m(base, "cpu").toFixed(2)} s = ${(m(ours, "cpu") / m(base, "cpu")).toFixed(2)}x; peak RSS ${Math.max(...ours.map((r) => r.rssMiB)).toFixed(0)} MiB (baseline ${Math.max(...base.map((r) => r.rssMiB)).toFixed(0)} MiB); ${target}`,
  );
}

/** The `/api/chats` row: the route's stream over a fresh index, time to its first rows and to the verdict. */
export async function benchApiChats(dir: string, chats: number, push: (line: string) => void): Promise<void> {
  const state = join(root, "bench", "out", "sessions", `state-${chats}`);
  process.env.ODA_LOG_DIR = dir;
  process.env.ODA_ADMIN_STATE = state;
  const { refreshIndex, closeAllIndexes } = await import("../lib/search-index");
  const t0 = performance.now();
  await refreshIndex(state, dir, { compress: true });
  const refreshMs = performance.now() - t0;
  const { streamChatList } = await import("../server/views/chat-list");
  const { liveContext } = await import("../server/source/context");
  const t = performance.now();
  let firstMs = 0;
  let rows = 0;
  let verdict = "";
  for await (const batch of streamChatList(liveContext({ home: null, logs: dir, state, demo: false }), {
    batch: 100,
  })) {
    if (!firstMs) firstMs = performance.now() - t;
    rows += batch.update ? 0 : batch.rows.length;
    if (batch.update && batch.index) verdict = batch.index.sentence;
  }
  const allMs = performance.now() - t;
  closeAllIndexes();
  push(
    `/api/chats first rows, ${chats} chats, index fresh: ${firstMs.toFixed(0)} ms (target ≤ 300 ms); all ${rows} index rows and the check's verdict after ${allMs.toFixed(0)} ms ("${verdict}"); index refresh before it ${(refreshMs / 1000).toFixed(1)} s`,
  );
}
