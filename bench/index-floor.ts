/**
 * `npm run bench:floor [-- --sizes 10000,100000] [--out DIR] [--no-build]` (10,000 chats by default): what a
 * full index build cannot avoid (issue 28), each part alone and against the baseline `bench:scale` sets the
 * build against, `zstd -dc` of every log (`xargs zstd -dc`, many files a process), in one run over the same
 * generated folder (`scale-data.ts`, reused from `--out`, bench:scale's default). Each part runs in a new
 * process and times itself (wall, and the process's CPU: every thread's):
 *  - decode: every log read and decoded in Node by the project's zstd binding (`@mongodb-js/zstd`), one call
 *    per log, and batched as the chat list and the reader threads batch small frames (`decodeFrameBatched`,
 *    256 logs in flight: many frames a call);
 *  - decode + parse: the batched decode, then every line split and given to `JSON.parse`;
 *  - + extract: and the searchable entries taken from each line (`extractText`, the build's own);
 *  - FTS5 insert: the same entries' text alone (extracted beforehand, untimed) into an FTS5 table of the
 *    index's definition and tokenizer (`schema.ts`), contentless, one `INSERT` per entry at the index's
 *    rowids, committed every 8 Mi characters as a build commits, with the build's bulk settings (hash size,
 *    no automerge), then its final `optimize` (timed apart);
 *  - and, unless `--no-build`, the build itself (`index refresh`, the CLI bundled as the package ships it, a
 *    new state), with GNU time.
 * `zstd -dc` runs before and after the parts; the faster of its two runs is the baseline.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { decompress } from "@mongodb-js/zstd";
import Database from "better-sqlite3";
import { decodeFrameBatched } from "../lib/chats/zstd/frame-batch";
import { extractText } from "../lib/search-index/extract";
import { ftsTable } from "../lib/search-index/schema";
import { makeScaleFolder } from "./scale-data";
import { bundleCli, type Run, timed } from "./sessions-list";

const { values } = parseArgs({
  options: {
    sizes: { type: "string" },
    out: { type: "string" },
    "no-build": { type: "boolean" },
    part: { type: "string" },
    logs: { type: "string" },
  },
});

const ENTRY_SPAN = 2 ** 24;
/** The build's commit size and bulk FTS5 hash size (`refresh.ts`). */
const BATCH_CHARS = 8 * 1024 * 1024;
const BULK_HASH_BYTES = 32 * 1024 * 1024;
/** Logs decoded at once in the batched decode: 256 short logs make one native call of a few hundred KB. */
const IN_FLIGHT = 256;

/** Every log of the folder (`<group>/<chat>/session*.zstd`), in the folder's order. */
function logsOf(dir: string): string[] {
  const out: string[] = [];
  for (const group of readdirSync(dir)) {
    if (group.startsWith(".")) continue;
    for (const chat of readdirSync(join(dir, group)))
      for (const name of readdirSync(join(dir, group, chat)))
        if (name.startsWith("session") && name.endsWith(".zstd")) out.push(join(dir, group, chat, name));
  }
  return out;
}

/** Decodes every log, `IN_FLIGHT` at a time through the batched decoder, handing each one's bytes to `each`. */
async function decodeAll(logs: string[], each: (data: Buffer, i: number) => void): Promise<void> {
  for (let at = 0; at < logs.length; at += IN_FLIGHT) {
    const slice = logs.slice(at, at + IN_FLIGHT);
    // The bound only sizes the joined call: a short log decodes to a few KB.
    const out = await Promise.all(slice.map((path) => decodeFrameBatched(readFileSync(path), 64 * 1024)));
    out.forEach((data, k) => {
      each(data, at + k);
    });
  }
}

/** Every line of a decoded log parsed, handed to `each`. */
function parseLines(data: Buffer, each: (json: Record<string, unknown> | null, raw: string) => void): void {
  for (const raw of data.toString("utf8").split("\n")) {
    if (!raw) continue;
    let json: Record<string, unknown> | null = null;
    try {
      const v: unknown = JSON.parse(raw);
      json = v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {}
    each(json, raw);
  }
}

/** The searchable texts of every log, with their rowids (chat `i`'s entries at `(i + 1) * ENTRY_SPAN + k`). */
async function extractAll(logs: string[]): Promise<{ ids: number[]; texts: string[] }> {
  const ids: number[] = [];
  const texts: string[] = [];
  await decodeAll(logs, (data, i) => {
    let k = 0;
    parseLines(data, (json, raw) => {
      for (const e of extractText(json, raw)) {
        ids.push((i + 1) * ENTRY_SPAN + k++);
        texts.push(e.text);
      }
    });
  });
  return { ids, texts };
}

/** FTS5's inserts of the texts alone, as the build commits them; then its final merge. */
function insertFts(file: string, ids: number[], texts: string[]): { insert: Timing; optimize: Timing } {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec(`${ftsTable("lines_fts", ", content='', contentless_delete=1")};`);
  const set = db.prepare("INSERT INTO lines_fts(lines_fts, rank) VALUES (?, CAST(? AS INTEGER))");
  set.run("automerge", 0);
  set.run("hashsize", BULK_HASH_BYTES);
  const insert = db.prepare("INSERT INTO lines_fts (rowid, text) VALUES (?, ?)");
  const t = start();
  let chars = 0;
  db.exec("BEGIN IMMEDIATE");
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i] as string;
    insert.run(ids[i], text);
    chars += text.length;
    if (chars >= BATCH_CHARS) {
      db.exec("COMMIT; BEGIN IMMEDIATE");
      chars = 0;
    }
  }
  db.exec("COMMIT");
  const inserted = t();
  const o = start();
  db.prepare("INSERT INTO lines_fts(lines_fts) VALUES ('optimize')").run();
  const optimized = o();
  db.close();
  return { insert: inserted, optimize: optimized };
}

interface Timing {
  wall: number;
  cpu: number;
}
/** A stopwatch of wall and process CPU time (every thread's), in seconds. */
function start(): () => Timing {
  const w = performance.now();
  const c = process.cpuUsage();
  return () => {
    const d = process.cpuUsage(c);
    return { wall: (performance.now() - w) / 1000, cpu: (d.user + d.system) / 1e6 };
  };
}

/** A part, in the child process: prints its timings as JSON. */
async function runPart(part: string, dir: string): Promise<void> {
  const logs = logsOf(dir);
  const report: Partial<PartReport> & { logs: number } = { logs: logs.length };
  if (part === "decode-each") {
    const t = start();
    for (const path of logs) await decompress(readFileSync(path));
    report.time = t();
  } else if (part === "decode") {
    const t = start();
    await decodeAll(logs, () => {});
    report.time = t();
  } else if (part === "parse") {
    const t = start();
    let lines = 0;
    await decodeAll(logs, (data) => parseLines(data, () => lines++));
    report.time = t();
    report.lines = lines;
  } else if (part === "extract") {
    const t = start();
    const { texts } = await extractAll(logs);
    report.time = t();
    report.entries = texts.length;
  } else if (part === "fts") {
    const { ids, texts } = await extractAll(logs);
    const file = join(resolve(dir, ".."), `floor-fts-${process.pid}.sqlite`);
    rmSync(file, { force: true });
    const { insert, optimize } = insertFts(file, ids, texts);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    report.time = insert;
    report.optimize = optimize;
    report.entries = texts.length;
    report.chars = texts.reduce((s, x) => s + x.length, 0);
  } else throw new Error(`unknown part ${part}`);
  process.stdout.write(JSON.stringify(report));
}

/** Runs a part in a new process (this file, under the same loader), returning what it printed. */
/** What a part prints. */
interface PartReport {
  time: Timing;
  optimize: Timing;
  lines: number;
  entries: number;
  chars: number;
}

function part(name: string, logs: string): PartReport {
  const r = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, "--part", name, "--logs", logs], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`part ${name} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const f2 = (x: number) => x.toFixed(2);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const log = (s: string) => process.stderr.write(`${s}\n`);

async function benchSize(n: number, out: string, cli: string | null): Promise<void> {
  const logs = await makeScaleFolder(out, n, 0, log);
  log(`${n} chats (load average ${load()}):`);
  const zstd = () =>
    timed(["/bin/sh", "-c", `find "$1/" -name 'session*.zstd' -print0 | xargs -0 zstd -dcq > /dev/null`, "sh", logs]);
  zstd(); // the page cache warmed alike for every part
  const z1 = zstd();
  const rows: [string, Timing][] = [];
  const notes: string[] = [];
  rows.push(["decode, one native call per log", part("decode-each", logs).time]);
  rows.push(["decode, batched (decodeFrameBatched)", part("decode", logs).time]);
  const parsed = part("parse", logs);
  rows.push(["decode + JSON.parse of every line", parsed.time]);
  rows.push(["decode + parse + extract (extractText)", part("extract", logs).time]);
  const fts = part("fts", logs);
  rows.push(["FTS5 insert alone (8 Mi chars a commit)", fts.time]);
  rows.push(["FTS5 final optimize", fts.optimize]);
  notes.push(`${parsed.lines} lines, ${fts.entries} entries, ${(fts.chars / 1e6).toFixed(1)} M characters of text`);
  let build: Run | null = null;
  if (cli) {
    const state = join(out, `floor-state-${n}`);
    rmSync(state, { recursive: true, force: true });
    build = timed([process.execPath, cli, "index", "refresh", "--logs", logs, "--state", state]);
    rmSync(state, { recursive: true, force: true });
  }
  const z2 = zstd();
  const base = { wall: Math.min(z1.wall, z2.wall), cpu: Math.min(z1.cpu, z2.cpu) };
  const sum = (names: string[]) =>
    rows
      .filter(([name]) => names.includes(name))
      .reduce((s, [, t]) => ({ wall: s.wall + t.wall, cpu: s.cpu + t.cpu }), { wall: 0, cpu: 0 });
  rows.push([
    "floor: decode + parse + extract, then FTS5 insert and optimize",
    sum(["decode + parse + extract (extractText)", "FTS5 insert alone (8 Mi chars a commit)", "FTS5 final optimize"]),
  ]);
  if (build) rows.push(["the build (`index refresh`, new process)", build]);
  console.log(`\n${n.toLocaleString("en")} chats, load average ${load()}; ${notes.join("; ")}`);
  console.log(
    `baseline \`xargs zstd -dc\`: ${f2(base.wall)} s, CPU ${f2(base.cpu)} s (runs: ${f2(z1.wall)} s and ${f2(z2.wall)} s)`,
  );
  console.log("| part | wall | × zstd -dc | CPU | × zstd -dc CPU |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const [name, t] of rows)
    console.log(
      `| ${name} | ${f2(t.wall)} s | ${(t.wall / base.wall).toFixed(1)}× | ${f2(t.cpu)} s | ${(t.cpu / base.cpu).toFixed(1)}× |`,
    );
  if (build) console.log(`(the build's peak RSS ${build.rssMiB.toFixed(0)} MiB)`);
}

async function main(): Promise<void> {
  if (values.part) {
    await runPart(values.part, values.logs as string);
    return;
  }
  const sizes = values.sizes ? values.sizes.split(",").map(Number) : [10_000];
  const out = values.out ? resolve(values.out) : resolve(import.meta.dirname, "out", "scale");
  mkdirSync(out, { recursive: true });
  const cli = values["no-build"] ? null : await bundleCli(out);
  for (const n of sizes) await benchSize(n, out, cli);
}

await main();
