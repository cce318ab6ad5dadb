import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  appendCutSave,
  createChat,
  openChat,
  settleFolder,
  upgradeToFormat4,
  type WriterOptions,
} from "../chats/testing";

/**
 * Generated logs with known totals for the Insights tests: several models,
 * days across a month boundary, Paris's DST change and Kathmandu's +5:45,
 * format 1 and format 4, an upgraded chat (an older generation), a chat with
 * an unfinished tail, and `growChat` to add a turn between two refreshes.
 */

/** The temp roots of a fixture. */
export interface InsightsFixture {
  dir: string;
  logs: string;
  state: string;
  /** What c-beta's log decompresses to before its cut save (the complete lines). */
  betaCompleteBytes: number;
}

type TurnSpec = { at: string; model?: string; usage?: [number, number] };

async function chat(logs: string, id: string, cwd: string | null, turns: TurnSpec[], options: WriterOptions = {}) {
  const w = createChat(logs, { id, cwd, created: turns[0]?.at }, options);
  for (const t of turns) {
    await w.appendTurn({
      user: `question from ${id} at ${t.at}`,
      assistant: `answer for ${id}`,
      ts: t.at,
      model: t.model,
      usage: t.usage ? { input_tokens: t.usage[0], output_tokens: t.usage[1] } : undefined,
    });
  }
  return w;
}

/** Writes the fixture's chats (c-grow with its first turn only). */
export async function makeInsightsFixture(): Promise<InsightsFixture> {
  const dir = mkdtempSync(join(tmpdir(), "oda-insights-"));
  const logs = join(dir, "logs");
  const state = join(dir, "state");
  mkdirSync(logs);
  await (
    await chat(logs, "c-alpha", "/work/a", [
      { at: "2026-03-28T22:30:00.000Z", model: "alpha", usage: [100, 10] },
      { at: "2026-03-29T22:30:00.000Z", model: "alpha", usage: [50, 5] },
      { at: "2026-10-31T23:30:00.000Z", model: "beta", usage: [200, 20] },
    ])
  ).close();
  const beta = await chat(logs, "c-beta", "/work/b", [
    { at: "2026-10-31T22:30:00.000Z", model: "alpha", usage: [1000, 100] },
  ]);
  const betaLog = beta.logPath;
  const before = statSync(betaLog).size;
  // A save cut after a few bytes: its message (5,000 tokens) is an unfinished tail and never counted.
  await appendCutSave(
    beta,
    [
      {
        type: "message",
        ts: "2026-10-31T22:40:00.000Z",
        role: "assistant",
        content: [],
        model: "alpha",
        usage: { input_tokens: 5000, output_tokens: 500 },
      },
    ],
    5,
  );
  const copy = join(dir, "beta-complete.zst");
  copyFileSync(betaLog, copy);
  truncateSync(copy, before);
  const betaCompleteBytes = execFileSync("zstd", ["-dc", copy]).length;
  await (await chat(logs, "c-old", "/work/a", [{ at: "2026-11-01T10:00:00.000Z" }], { format: 1 })).close();
  await (
    await chat(logs, "c-grow", null, [{ at: "2026-11-02T12:00:00.000Z", model: "gamma", usage: [300, 30] }])
  ).close();
  await (await chat(logs, "c-upg", "/work/c", [{ at: "2026-11-05T10:00:00.000Z" }], { format: 1 })).close();
  await upgradeToFormat4(logs, "c-upg");
  // Written long before the refreshes that follow: no file is racy, so only a change is read again.
  settleFolder(logs);
  return { dir, logs, state, betaCompleteBytes };
}

/**
 * Chats around Berlin's change back from summer time (2026-10-25, 03:00 CEST
 * becomes 02:00 CET at 01:00 UTC): messages either side of local midnight on
 * both sides of the change, inside the repeated hour, one chat spanning it,
 * two models, and a format 1 chat (messages with no usage).
 */
export async function makeDstFixture(): Promise<InsightsFixture> {
  const dir = mkdtempSync(join(tmpdir(), "oda-insights-dst-"));
  const logs = join(dir, "logs");
  const state = join(dir, "state");
  mkdirSync(logs);
  const turns: [string, string | null, TurnSpec[]][] = [
    [
      "d-span",
      "/work/a",
      [
        { at: "2026-10-24T21:59:00.000Z", model: "alpha", usage: [11, 1] }, // 23:59 CEST on the 24th
        { at: "2026-10-24T22:00:00.000Z", model: "alpha", usage: [13, 2] }, // 00:00 CEST on the 25th
        { at: "2026-10-25T00:30:00.000Z", model: "beta", usage: [17, 3] }, // 02:30 CEST, the first pass
        { at: "2026-10-25T01:30:00.000Z", model: "beta", usage: [19, 4] }, // 02:30 CET, the repeated hour
        { at: "2026-10-25T22:59:00.000Z", model: "alpha", usage: [23, 5] }, // 23:59 CET on the 25th
        { at: "2026-10-25T23:00:00.000Z", model: "alpha", usage: [29, 6] }, // 00:00 CET on the 26th
      ],
    ],
    ["d-late", null, [{ at: "2026-10-25T23:30:00.000Z", model: "beta", usage: [31, 7] }]],
    ["d-early", "/work/b", [{ at: "2026-10-24T12:00:00.000Z", model: "alpha", usage: [37, 8] }]],
  ];
  for (const [id, cwd, t] of turns) await (await chat(logs, id, cwd, t)).close();
  // A message whose time cannot be read falls on no day: left out of every report.
  const undated = await openChat(logs, "d-late");
  await undated.appendEvents([
    {
      type: "message",
      ts: "not a time",
      role: "assistant",
      content: [],
      model: "beta",
      usage: { input_tokens: 1000, output_tokens: 100 },
    },
  ]);
  await undated.close();
  await (await chat(logs, "d-old", "/work/a", [{ at: "2026-10-25T10:00:00.000Z" }], { format: 1 })).close();
  return { dir, logs, state, betaCompleteBytes: 0 };
}

/** Appends c-grow's second turn (the chat grows between two refreshes). */
export async function growChat(logs: string): Promise<void> {
  const w = await openChat(logs, "c-grow");
  await w.appendTurn({
    user: "more",
    assistant: "more",
    ts: "2026-11-03T12:00:00.000Z",
    model: "gamma",
    usage: { input_tokens: 400, output_tokens: 40 },
  });
  await w.close();
  settleFolder(w.dir);
}

/** Sizes on disk of a chat folder's files, by kind, found by stat (the expected storage numbers). */
export function diskSizes(chatDir: string): {
  currentPath: string;
  current: number;
  older: number;
  olderLogs: number;
  cache: number;
  lock: number;
} {
  const logs = readdirSync(chatDir).filter((n) => /^session(\.v\d+)?\.jsonl(\.zstd)?$/.test(n));
  const newest = logs.sort((a, b) => (a.length === b.length ? (a < b ? -1 : 1) : a.length - b.length)).pop();
  const size = (n: string) => statSync(join(chatDir, n), { throwIfNoEntry: false })?.size ?? 0;
  return {
    currentPath: join(chatDir, newest ?? ""),
    current: newest ? size(newest) : 0,
    older: logs.reduce((t, n) => t + size(n), 0),
    olderLogs: logs.length,
    cache: size("session.cache.json"),
    lock: size("session.lock"),
  };
}
