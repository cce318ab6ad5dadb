/**
 * `npm run bench:scale [-- --sizes 10000,100000] [--million] [--huge-mb M] [--list-only] [--generate-only] [--sort] [--out DIR]`: how each cost grows with the
 * number of chats (issue 28). For each size, a generated log folder (bench/out/scale, made once and
 * reused: short chats of three turns, each with its checkpoint, as Oda leaves them; with --huge-mb one
 * more chat whose log of about M MB decompressed has no checkpoint), and in one run:
 *  - the baseline: a new process reading and parsing every `session.cache.json` (the folder's and each
 *    group's readdir, then readFileSync + JSON.parse);
 *  - `sessions list --json` in a new process (the CLI bundled as the package ships it) with an empty admin
 *    state (first run: every chat verified by the full rule and remembered), then again (second run: served
 *    from `listing.sqlite`), and for the record without any admin state; with how many chats each run served
 *    from memory, verified again and rebuilt;
 *  - the index build (`index refresh`, a new process) vs `zstd -dc` of every log (`xargs zstd -dc`, many
 *    files a process), the index's size, and a rare-word `search` in a new process;
 *  - `/api/chats` first rows: the route's stream (`streamChatList`) over the fresh index, in this process;
 *  - the chat page's read of one chat: `chat show chat-0 --json` in a new process;
 *  - every new process's peak RSS (GNU time).
 * With `--sort`, only the chat list's orders read from the index, on the server's side (`lib/search-index/list-order.ts`):
 * for each column and direction, the first page (the count, a seek in the column's index, 200 summaries:
 * what `/api/chats?sort=…` sends first) and every page through to the end in pages of 2,000 by the cursor,
 * against a baseline timed in the same run, a plain `SELECT` of every row's list columns; and the default
 * order walked with `LIMIT … OFFSET` for comparison. Its index is built once (`sort-state-<n>` beside the
 * folders) and reused. `--out` puts the folders elsewhere (made once, reused). `--copies K` also measures an
 * index of K times as many chats made from the built one, each chat's row copied K-1 times under new ids (its
 * summary, values and ties kept): the orders read only the chats' rows and their indexes, and a full build of
 * 100,000 chats takes far longer than the orders it serves on a loaded machine.
 * The chats' files are dated an hour back, so none is racy (`remembered.ts`) unless the bench says so.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { CHAT_SORT_KEYS } from "../lib/chats/views";
import type { Db } from "../lib/search-index/db";
import { orderedChats, SORT_COLUMNS } from "../lib/search-index/list-order";
import { IndexRows } from "../lib/search-index/list-rows";
import { SUMMARY_COLUMNS } from "../lib/search-index/summary-codec";
import { RARE } from "./index-data";
import { makeScaleFolder } from "./scale-data";
import { bundleCli, type Run, timed } from "./sessions-list";

const { values } = parseArgs({
  options: {
    sizes: { type: "string" },
    million: { type: "boolean" },
    "huge-mb": { type: "string" },
    "list-only": { type: "boolean" },
    "generate-only": { type: "boolean" },
    sort: { type: "boolean" },
    copies: { type: "string" },
    out: { type: "string" },
  },
});
const SIZES = values.sizes
  ? values.sizes.split(",").map(Number)
  : [10_000, 100_000, ...(values.million ? [1_000_000] : [])];
const HUGE = Number(values["huge-mb"] ?? 0) * 1_000_000;
const out = values.out ? resolve(values.out) : resolve(import.meta.dirname, "out", "scale");
const log = (s: string) => process.stderr.write(`${s}\n`);
/** `timed` with the command's standard output kept in a file (GNU time measures the command itself). */
function timedTo(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Run {
  return timed(["/bin/sh", "-c", 'out="$1"; shift; exec "$@" > "$out"', "sh", file, ...args], env);
}

/** The baseline's script (as bench:sessions): readdirs, then readFileSync + JSON.parse of each checkpoint. */
const BASELINE = `import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
const dir = process.argv[2];
let n = 0;
for (const group of readdirSync(dir)) {
  if (group.startsWith(".")) continue;
  for (const chat of readdirSync(join(dir, group))) {
    try { n += JSON.parse(readFileSync(join(dir, group, chat, "session.cache.json"), "utf8")).details.messages > 0 ? 1 : 0; } catch {}
  }
}
console.log(n);
`;

/** The `"served"` counts at the end of a `sessions list --json` output. */
function servedIn(file: string): string {
  const text = readFileSync(file, "utf8");
  const m = /"served": (\{[^}]*\})/.exec(text.slice(-400));
  if (!m) return "-";
  const c = JSON.parse(m[1] as string) as { memory: number; verified: number; rebuilt: number };
  return `${c.memory} memory, ${c.verified} verified, ${c.rebuilt} rebuilt`;
}

const f2 = (x: number) => x.toFixed(2);
const mib = (r: Run) => `${r.rssMiB.toFixed(0)} MiB`;
const dirBytes = (state: string) =>
  ["index.sqlite", "index.sqlite-wal"].reduce(
    (s, n) => s + (statSync(join(state, n), { throwIfNoEntry: false })?.size ?? 0),
    0,
  );

async function benchSize(n: number, cli: string, baselineFile: string, rows: string[][]): Promise<void> {
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(" ");
  log(`${n} chats (load average ${load()}):`);
  const logs = await makeScaleFolder(out, n, HUGE, log);
  const work = join(out, `run-${n}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const listState = join(work, "list-state");
  const indexState = join(work, "index-state");
  const node = process.execPath;
  const stdout = join(work, "out.json");
  // Warm the page cache alike for all: one listing without state reads every file either side reads.
  timedTo(stdout, [node, cli, "sessions", "list", "--json", "--logs", logs]);
  const base = timed([node, baselineFile, logs]);
  log(`  baseline ${f2(base.wall)} s`);
  const listArgs = [node, cli, "sessions", "list", "--json", "--logs", logs, "--state", listState];
  const first = timedTo(stdout, listArgs);
  const firstServed = servedIn(stdout);
  // Between the two runs with state, so each listing follows another that read the same files.
  const stateless = timedTo(stdout, [node, cli, "sessions", "list", "--json", "--logs", logs]);
  const second = timedTo(stdout, listArgs);
  const secondServed = servedIn(stdout);
  const base2 = timed([node, baselineFile, logs]);
  const baseWall = Math.min(base.wall, base2.wall);
  // The chat page's read of one chat (every generated chat is alike, three turns; the big log is bench:sessions').
  const show = timedTo(join(work, "show.json"), [node, cli, "chat", "show", "chat-0", "--json", "--logs", logs]);
  log(`  listing ${f2(first.wall)} s, then ${f2(second.wall)} s; without state ${f2(stateless.wall)} s`);
  let indexCells = ["-", "-", "-", "-"];
  if (!values["list-only"]) {
    const zstd = timed([
      "/bin/sh",
      "-c",
      `find "$1/" -name 'session*.zstd' -print0 | xargs -0 zstd -dcq > /dev/null`,
      "sh",
      logs,
    ]);
    const build = timedTo(join(work, "refresh.txt"), [
      node,
      cli,
      "index",
      "refresh",
      "--logs",
      logs,
      "--state",
      indexState,
    ]);
    log(
      `  index build ${f2(build.wall)} s (CPU ${f2(build.cpu)} s) vs zstd -dc ${f2(zstd.wall)} s (CPU ${f2(zstd.cpu)} s)`,
    );
    const search = timedTo(join(work, "search.json"), [
      node,
      cli,
      "search",
      RARE,
      "--json",
      "--no-refresh",
      "--logs",
      logs,
      "--state",
      indexState,
    ]);
    const hits = (JSON.parse(readFileSync(join(work, "search.json"), "utf8")) as { groups: unknown[] }).groups.length;
    const api = await apiFirstRows(logs, indexState);
    indexCells = [
      api,
      `${f2(search.wall)} s (${hits} chats shown), ${mib(search)}`,
      `${f2(build.wall)} s vs ${f2(zstd.wall)} s = ${(build.wall / zstd.wall).toFixed(1)}× (CPU ${f2(build.cpu)} s vs ${f2(zstd.cpu)} s = ${(build.cpu / zstd.cpu).toFixed(1)}×), ${mib(build)}`,
      `${(dirBytes(indexState) / 1e6).toFixed(0)} MB`,
    ];
  }
  const baseCpu = Math.min(base.cpu, base2.cpu);
  const x = (r: Run) => `${f2(r.wall)} s = ${f2(r.wall / baseWall)}× (CPU ${f2(r.cpu)} s = ${f2(r.cpu / baseCpu)}×)`;
  rows.push([
    `${n.toLocaleString("en")} (load ${load()})`,
    `${f2(baseWall)} s (CPU ${f2(baseCpu)} s), ${mib(base)}`,
    `${x(first)}, ${mib(first)} (${firstServed})`,
    `${x(second)}, ${mib(second)} (${secondServed})`,
    `${x(stateless)}, ${mib(stateless)}`,
    `${f2(show.wall)} s, ${mib(show)}`,
    ...indexCells,
  ]);
  // Each size's row as soon as it is measured: a million chats takes long enough to be stopped before the table.
  log(`| ${rows.at(-1)?.join(" | ")} |`);
}

/** `/api/chats` first rows over the fresh index (the route's `streamChatList`), and when its check said so. */
async function apiFirstRows(logs: string, state: string): Promise<string> {
  const { closeAllIndexes } = await import("../lib/search-index");
  const { streamChatList } = await import("../server/views/chat-list");
  const { liveContext } = await import("../server/source/context");
  const ctx = liveContext({ home: null, logs, state, demo: false });
  const t = performance.now();
  let firstMs = 0;
  let verdict = "";
  for await (const batch of streamChatList(ctx, { batch: 100 })) {
    if (!firstMs) firstMs = performance.now() - t;
    if (batch.update && batch.index) verdict = batch.index.fresh ? "fresh" : "not fresh";
  }
  const allMs = performance.now() - t;
  closeAllIndexes();
  return `${firstMs.toFixed(0)} ms (checked ${verdict} at ${(allMs / 1000).toFixed(1)} s)`;
}

/** The median of `runs` timings of `f`, in ms. */
function medianMs(runs: number, f: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)] as number;
}

/** `--sort`: the list's orders from the index at `n` chats, against a plain SELECT of every row. */
async function benchSort(n: number): Promise<void> {
  const { closeAllIndexes, handleOf, refreshIndex } = await import("../lib/search-index");
  const logs = await makeScaleFolder(out, n, HUGE, log);
  const state = join(out, `sort-state-${n}`);
  const built = () => {
    try {
      return handleOf(state, logs).db.prepare("SELECT value FROM meta WHERE key = 'refreshedAt'").pluck().get();
    } catch {
      return undefined;
    }
  };
  if (!built()) {
    const t = performance.now();
    await refreshIndex(state, logs, { compress: true });
    log(`  ${n} chats: index built in ${((performance.now() - t) / 1000).toFixed(0)} s (once, reused)`);
  }
  measureSort(handleOf(state, logs).db);
  const copies = Number(values.copies ?? 0);
  if (copies > 1) {
    const more = join(out, `sort-state-${n}x${copies}`);
    if (!existsSync(join(more, "index.sqlite"))) {
      closeAllIndexes();
      mkdirSync(more, { recursive: true });
      handleOf(state, logs).db.exec(`VACUUM INTO '${join(more, "index.sqlite")}'`);
      const db = handleOf(more, logs).db;
      const t = performance.now();
      const cols =
        "folder, cwd, title, first_activity, last_activity, messages, problems, source, fingerprint, format, summary, indexed_at";
      db.transaction(() => {
        for (let k = 1; k < copies; k++)
          db.prepare(
            `INSERT INTO chats (id, ${cols}) SELECT id || '-copy-${k}', ${cols} FROM chats WHERE id NOT LIKE '%-copy-%'`,
          ).run();
      })();
      log(`  ${n}×${copies} chats: rows copied in ${((performance.now() - t) / 1000).toFixed(0)} s (once, reused)`);
    }
    measureSort(handleOf(more, logs).db);
  }
  closeAllIndexes();
}

/** The orders' figures over one index. */
function measureSort(db: Db): void {
  const count = db.prepare("SELECT count(*) FROM chats").pluck().get() as number;
  const every = db.prepare(`SELECT cid, ${SUMMARY_COLUMNS}, source FROM chats`);
  every.all();
  const base = medianMs(3, () => every.all());
  const page = 2000;
  const readAll = (rows: IndexRows) => {
    for (let at = 200; at < rows.count; at += page) rows.at(at, at + page);
  };
  console.log(
    `\n${count.toLocaleString("en")} chats in the index; baseline, a plain SELECT of every row: ${base.toFixed(1)} ms`,
  );
  console.log("| order | first page (200) | × baseline | every page (2,000 each) | × baseline |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const key of CHAT_SORT_KEYS) {
    for (const dir of ["desc", "asc"] as const) {
      const order = { key, dir };
      const first = medianMs(3, () => new IndexRows(db, 200, order));
      const all = medianMs(1, () => readAll(new IndexRows(db, 200, order)));
      console.log(
        `| ${key} ${dir} | ${first.toFixed(1)} ms | ${(first / base).toFixed(3)}× | ${all.toFixed(0)} ms | ${(all / base).toFixed(2)}× |`,
      );
    }
  }
  // The default order as earlier pages were read: each page walks its offset again.
  const { sql } = SORT_COLUMNS.lastActivity;
  const offsetPage = db.prepare(`SELECT cid FROM chats ORDER BY ${sql} DESC, id LIMIT ? OFFSET ?`).pluck();
  const offsets = medianMs(1, () => {
    for (let at = 0; at < count; at += page) offsetPage.all(page, at);
  });
  const cursor = medianMs(1, () => {
    let after: { key: string | number; id: string } | null = null;
    for (let at = 0; at < count; at += page) {
      const chats = orderedChats(db, { key: "lastActivity", dir: "desc" }, after, page);
      const last = chats.at(-1);
      if (last) after = { key: last.key, id: last.id };
    }
  });
  console.log(
    `| lastActivity desc, places only: LIMIT … OFFSET | ${offsets.toFixed(0)} ms | | by the cursor | ${cursor.toFixed(0)} ms (${(cursor / offsets).toFixed(2)}× the OFFSET walk) |`,
  );
}

async function main(): Promise<void> {
  mkdirSync(out, { recursive: true });
  if (values.sort) {
    for (const n of SIZES) await benchSort(n);
    return;
  }
  if (values["generate-only"]) {
    for (const n of SIZES) await makeScaleFolder(out, n, HUGE, log);
    return;
  }
  const cli = await bundleCli(out);
  const baselineFile = join(out, "baseline.mjs");
  writeFileSync(baselineFile, BASELINE);
  const rows: string[][] = [];
  for (const n of SIZES) await benchSize(n, cli, baselineFile, rows);
  const head = [
    "chats",
    "baseline: every checkpoint read",
    "sessions list, first run",
    "second run",
    "without admin state",
    "chat page (`chat show`, new process)",
    "/api/chats first rows",
    "rare-word search",
    "index build vs zstd -dc",
    "index size",
  ];
  console.log(`${HUGE ? `(plus one log of ${HUGE / 1e6} MB without a checkpoint)\n` : ""}`);
  console.log(`| ${head.join(" | ")} |`);
  console.log(`| ${head.map(() => "---").join(" | ")} |`);
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
}

await main();
// The decode worker the route's stream started keeps the process alive otherwise.
process.exit(0);
