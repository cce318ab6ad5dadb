/**
 * `npm run bench:insights [-- --large | --chats N] [--keep]`: the Insights
 * page's first view over a freshly built index, and each aggregate query,
 * against a plain full scan of the usage table in the same run.
 *
 * Generates N chats (10,000; 100,000 with --large) with the project's writer
 * into bench/out/: 3 turns each, four models, days spread over 400 days (month,
 * year and DST boundaries), a working folder per 100 chats, one chat in 20 in
 * format 1. Builds the index, opens it again (a fresh connection, as a
 * restarted server would), then times `insightsOverview` (what the page's
 * server function calls) once cold and as a median warm, and each report.
 * Prints times, ratios against the baseline and the peak RSS; the target is a
 * first view under 1 s at 100,000 chats. With --keep the generated logs and
 * their index are reused (the index is brought up to date, which reads no log).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  activityByDay,
  insightsOverview,
  storageReport,
  usageByChat,
  usageByFolder,
  usageByPeriod,
} from "../lib/insights";
import { closeAllIndexes, handleOf, refreshIndex } from "../lib/search-index";
import { createChat } from "../test-support/chats/testing";
import { makeText } from "./sessions-data";

const { values } = parseArgs({
  options: { chats: { type: "string" }, large: { type: "boolean" }, keep: { type: "boolean" } },
});
const N = values.chats ? Number(values.chats) : values.large ? 100_000 : 10_000;
const out = resolve(import.meta.dirname, "out");
const logs = join(out, `insights-logs-${N}`);
const state = join(out, `insights-state-${N}`);
const MODELS = ["oda-large-2026-10", "oda-small-2026-10", "oda-large-2026-04", "oda-code-2026-08"];
const DAY = 86_400_000;
const START = Date.parse("2025-10-01T00:00:00.000Z");
const ms = (t0: number) => performance.now() - t0;
const fmt = (n: number) => `${n.toFixed(1)} ms`;

async function generate(): Promise<void> {
  if (values.keep && existsSync(join(logs, ".complete"))) {
    console.error(`Reusing ${logs}`);
    return;
  }
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  const groups = Math.max(1, Math.round(N / 100));
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    // Spread over 400 days, at any hour: days, months and the zone's DST changes all get chats.
    const at = START + Math.floor((i / N) * 400 * DAY) + ((i * 7919) % 24) * 3_600_000;
    const w = createChat(
      logs,
      { id: `c-${i}`, cwd: `/home/user/project-${i % groups}`, created: new Date(at).toISOString() },
      { format: i % 20 === 7 ? 1 : 4 },
    );
    for (let t = 0; t < 3; t++) {
      await w.appendTurn({
        user: makeText(i * 10 + t, 20),
        assistant: makeText(i * 10 + t + 5, 60),
        ts: new Date(at + t * 600_000).toISOString(),
        model: MODELS[(i + t) % MODELS.length],
      });
    }
    await w.close();
    if ((i + 1) % 1000 === 0) process.stderr.write(`\rgenerating chats: ${i + 1} / ${N}`);
  }
  writeFileSync(join(logs, ".complete"), "");
  process.stderr.write(`\rgenerated ${N} chats in ${(ms(t0) / 1000).toFixed(1)} s\n`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function timeIt(f: () => unknown, runs = 5): number {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    f();
    times.push(ms(t0));
  }
  return median(times);
}

async function main(): Promise<void> {
  await generate();
  if (!values.keep) rmSync(state, { recursive: true, force: true });
  let t0 = performance.now();
  const built = await refreshIndex(state, logs, {
    onProgress: (done, total) => {
      if (done % 1000 === 0 || done === total) process.stderr.write(`\rindexing: ${done} / ${total}   `);
    },
  });
  process.stderr.write(`\n`);
  const buildMs = ms(t0);
  // A fresh connection: the first view is timed as a restarted server would serve it.
  closeAllIndexes();
  const db = handleOf(state, logs).db;
  const filter = { tz: "Europe/Paris" };
  t0 = performance.now();
  const first = await insightsOverview(db, null, filter);
  const firstMs = ms(t0);
  const baseline = timeIt(() => db.prepare("SELECT count(*), sum(input) FROM usage").get());
  const usageRows = db.prepare("SELECT count(*) AS n FROM usage").pluck().get() as number;
  const warm: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    await insightsOverview(db, null, filter);
    warm.push(ms(t));
  }
  const queries: [string, () => unknown][] = [
    ["usage daily", () => usageByPeriod(db, "daily", filter)],
    ["usage weekly", () => usageByPeriod(db, "weekly", filter)],
    ["usage monthly", () => usageByPeriod(db, "monthly", filter)],
    ["usage chats (top 20)", () => usageByChat(db, filter, 20)],
    ["usage folders", () => usageByFolder(db, filter)],
    ["activity per day", () => activityByDay(db, filter)],
    ["storage", () => storageReport(db)],
    ["usage daily, one folder", () => usageByPeriod(db, "daily", { ...filter, cwd: "/home/user/project-3" })],
    ["usage daily, 30 days", () => usageByPeriod(db, "daily", { ...filter, since: "2026-03-01", until: "2026-03-30" })],
  ];
  console.log(`\nInsights over ${N.toLocaleString("en")} chats (${usageRows.toLocaleString("en")} usage rows)`);
  console.log(
    `  index ${values.keep ? "refresh" : "build"}: ${(buildMs / 1000).toFixed(1)} s, ${built.linesRead.toLocaleString("en")} lines read`,
  );
  console.log(`  baseline SELECT count(*), sum(input) FROM usage: ${fmt(baseline)}`);
  console.log(
    `  first view (insightsOverview, fresh connection): ${fmt(firstMs)}  (${(firstMs / baseline).toFixed(1)}x baseline)`,
  );
  console.log(
    `  first view again, median of 5: ${fmt(median(warm))}  (${(median(warm) / baseline).toFixed(1)}x baseline)`,
  );
  for (const [name, f] of queries) {
    const t = timeIt(f);
    console.log(`  ${name.padEnd(26)} ${fmt(t).padStart(10)}  (${(t / baseline).toFixed(1)}x baseline)`);
  }
  console.log(`  days in the daily report: ${first.usage.rows.length}, folders: ${first.folders.length}`);
  console.log(`  peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
  console.log(`  first view under 1 s: ${firstMs < 1000 ? "yes" : "NO"}`);
  closeAllIndexes();
}

await main();
