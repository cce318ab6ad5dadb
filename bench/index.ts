/**
 * `npm run bench:index [-- --chats N | --large] [--keep]`: the search index
 * against `zstd -dc … | grep` over the same logs, in the same run.
 *
 * Generates a log folder of N chats (10,000; 100,000 with --large) with the
 * project's own writer into bench/out/, then times: the first full build, a
 * refresh after 1% of the chats got a new turn, and queries against the grep
 * baseline. Prints the ratios; the targets are a search ≥100× faster than grep
 * and a 1% refresh ≥20× faster than the full build. The search verdict holds
 * for every query: a word in 1%, 10% and nearly 100% of the chats, a phrase OR
 * a word. With --keep an existing
 * generated folder of the same size is reused.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { closeAllIndexes, refreshIndex, searchChats } from "../lib/index";
import { ChatWriter, createChat } from "../lib/sessions/testing";

const { values } = parseArgs({
  options: {
    chats: { type: "string" },
    large: { type: "boolean" },
    keep: { type: "boolean" },
    turns: { type: "string" },
  },
});
const N = values.chats ? Number(values.chats) : values.large ? 100_000 : 10_000;
const TURNS = values.turns ? Number(values.turns) : 4;
const out = resolve(import.meta.dirname, "out");
const logs = join(out, `logs-${N}`);
const state = join(out, `state-${N}`);

// A small deterministic generator: the same folder on every run.
let seed = 42;
const rand = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const WORDS =
  "report budget deploy server query table chart invoice customer migrate backup folder script python error warning cache build release branch merge review schedule meeting summary draft email contract payment export import".split(
    " ",
  );
const sentence = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");
/** In 1% of the chats, in 10% of them, and (vocabulary words) in nearly all. */
const RARE = "zanzibar";
const MEDIUM = "kilimanjaro";
const CWDS = Array.from({ length: 50 }, (_, i) => `/home/user${i % 7}/project-${i}`);

const dayOf = (i: number) => `2026-${String(1 + (i % 11)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
const identityOf = (i: number) => ({
  id: `chat-${i}`,
  cwd: CWDS[i % CWDS.length] ?? null,
  created: `${dayOf(i)}T08:00:00.000Z`,
  continues: null,
});

const ms = (t0: number) => Math.round(performance.now() - t0);
const fmt = (n: number) => `${n.toLocaleString("en")} ms`;

async function generate(): Promise<void> {
  if (values.keep && existsSync(join(logs, ".complete"))) {
    console.error(`Reusing ${logs}`);
    return;
  }
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const w = createChat(logs, identityOf(i));
    const day = dayOf(i);
    for (let t = 0; t < TURNS; t++) {
      const rare = i % 100 === 7 && t === 1 ? ` ${RARE}` : "";
      const medium = i % 10 === 3 && t === 2 ? ` ${MEDIUM}` : "";
      await w.appendTurn({
        user: `${sentence(12)}${rare}?`,
        assistant: `${sentence(40)}${medium}`,
        ts: `${day}T08:${String(t + 1).padStart(2, "0")}:00.000Z`,
      });
    }
    await w.close();
    if ((i + 1) % 1000 === 0) process.stderr.write(`\rgenerating chats: ${i + 1} / ${N}`);
  }
  writeFileSync(join(logs, ".complete"), "");
  process.stderr.write(`\rgenerated ${N} chats of ${TURNS} turns in ${fmt(ms(t0))}\n`);
}

/** The baseline: decompress every log and grep it, as an administrator would by hand. */
function grepBaseline(pattern: string): { ms: number; count: number } {
  const t0 = performance.now();
  const r = spawnSync(
    "bash",
    ["-c", `find "$1" -name '*.zstd' -print0 | xargs -0 zstd -dcq | grep -E -c -i -- "$2"`, "bench", logs, pattern],
    { encoding: "utf8", maxBuffer: 1 << 20 },
  );
  return { ms: performance.now() - t0, count: Number(r.stdout.trim()) || 0 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  try {
    execFileSync("zstd", ["--version"]);
  } catch {
    throw new Error("The baseline needs the zstd command (apt-get install zstd).");
  }
  await generate();
  rmSync(state, { recursive: true, force: true });
  const progress = (done: number, total: number) => {
    if (done % 500 === 0 || done === total) process.stderr.write(`\rindexing: ${done} / ${total}   `);
  };

  let t0 = performance.now();
  const full = await refreshIndex(state, logs, { onProgress: progress });
  const fullMs = ms(t0);
  process.stderr.write("\n");

  // 1% of the chats get one more turn.
  const changed = Math.max(1, Math.round(N / 100));
  // (Written as one more save through the writer, without a new checkpoint: the checkpoint is then behind the
  // log, as after a failed checkpoint write. `openChat` would walk the whole folder to find each chat.)
  for (let k = 0; k < changed; k++) {
    const w = new ChatWriter(logs, identityOf(Math.floor((k * N) / changed) + 3), {});
    const lines = [
      {
        type: "message",
        ts: "2026-12-01T09:00:00.000Z",
        role: "user",
        content: [{ type: "text", text: `${sentence(10)} appended` }],
      },
      {
        type: "message",
        ts: "2026-12-01T09:00:01.000Z",
        role: "assistant",
        content: [{ type: "text", text: sentence(30) }],
      },
      { type: "turn_end", ts: "2026-12-01T09:00:02.000Z" },
    ].map((e) => JSON.stringify(e));
    await w.writeSave(await w.encodeSave(lines), null);
    w.releaseLock();
  }
  t0 = performance.now();
  const partial = await refreshIndex(state, logs, { onProgress: progress });
  const partialMs = ms(t0);
  process.stderr.write("\n");
  t0 = performance.now();
  const idle = await refreshIndex(state, logs);
  const idleMs = ms(t0);

  /** Each query with the grep -E pattern that finds the same lines. */
  const queries: [string, string][] = [
    [RARE, RARE],
    ["appended", "appended"],
    [MEDIUM, MEDIUM],
    [`"${MEDIUM}" OR ${RARE}`, `${MEDIUM}|${RARE}`],
    ["invoice", "invoice"],
  ];
  const rows: string[] = [];
  let worst = Number.POSITIVE_INFINITY;
  const ratios: number[] = [];
  for (const [q, pattern] of queries) {
    const times: number[] = [];
    let result = searchChats(state, logs, { query: q });
    for (let k = 0; k < 5; k++) {
      const q0 = performance.now();
      result = searchChats(state, logs, { query: q });
      times.push(performance.now() - q0);
    }
    const greps = [grepBaseline(pattern), grepBaseline(pattern), grepBaseline(pattern)];
    const grep = { ms: median(greps.map((g) => g.ms)), count: greps[0]?.count ?? 0 };
    const m = median(times);
    worst = Math.min(worst, grep.ms / m);
    ratios.push(grep.ms / m);
    rows.push(
      `  ${JSON.stringify(q).padEnd(28)} index ${m.toFixed(2).padStart(8)} ms (${result.totalHits} entries in ${result.totalChats ?? `more than ${result.groups.length}`} chats)   zstd -dc | grep ${grep.ms.toFixed(0).padStart(6)} ms (${grep.count} lines)   ${(grep.ms / m).toFixed(0)}× faster`,
    );
  }
  closeAllIndexes();

  const refreshRatio = fullMs / Math.max(partialMs, 1);
  console.log(`bench:index — ${N.toLocaleString("en")} chats × ${TURNS} turns (zstd logs), ${logs}`);
  console.log(`  full build          ${fmt(fullMs)}  (${full.linesRead.toLocaleString("en")} lines read)`);
  console.log(
    `  1% refresh          ${fmt(partialMs)}  (${partial.changed} chats changed, ${partial.appended} appended, ${partial.reindexed} re-read, ${partial.linesRead} lines read)   ${refreshRatio.toFixed(1)}× faster than the full build (target ≥20×)`,
  );
  console.log(`  refresh, no change  ${fmt(idleMs)}  (${idle.changed} changed)`);
  console.log("  queries (median of 5 index runs, of 3 grep runs):");
  for (const r of rows) console.log(r);
  const typical = median(ratios);
  console.log(
    `  search vs grep: median ${typical.toFixed(0)}×, slowest ${worst.toFixed(0)}× — target ≥100× for every query`,
  );
  const ok = refreshRatio >= 20 && worst >= 100;
  console.log(ok ? "  targets met" : "  TARGETS MISSED");
  process.exitCode = ok ? 0 : 1;
}

await main();
