import { OdaError } from "../../lib/errors";
import { handleOf, refreshIndex } from "../../lib/index";
import {
  type InsightsFilter,
  type Period,
  storageReport,
  type UsageSums,
  usageByChat,
  usageByFolder,
  usageByPeriod,
} from "../../lib/insights";
import { readCompressSetting } from "../../lib/sessions";
import { type Command, type CommandContext, flagString } from "../context";
import { formatStorage } from "./storage-text";

/**
 * `oda-admin usage daily|weekly|monthly|chats|folders` and `oda-admin storage`,
 * in ccusage's habits: the index is refreshed first (only what changed is
 * read), `--since`/`--until` are local dates, `--tz` chooses the zone days
 * are grouped in, and `--json` prints one stable document per report: the
 * same numbers the Insights page shows.
 */

function logsOf(ctx: CommandContext): string {
  if (!ctx.roots.logs) throw new OdaError("bad_input", "Give the log folder with --logs DIR or ODA_LOG_DIR.");
  return ctx.roots.logs;
}

/** Refreshes the index (unless --no-refresh) and returns its connection. */
async function freshDb(ctx: CommandContext) {
  const logs = logsOf(ctx);
  if (ctx.flags["no-refresh"] !== true)
    await refreshIndex(ctx.roots.state, logs, { compress: readCompressSetting(ctx.roots.home) });
  return handleOf(ctx.roots.state, logs).db;
}

function filterOf(ctx: CommandContext): InsightsFilter {
  return {
    since: flagString(ctx, "since"),
    until: flagString(ctx, "until"),
    cwd: flagString(ctx, "cwd"),
    model: flagString(ctx, "model"),
    tz: flagString(ctx, "tz"),
  };
}

const n = (v: number) => v.toLocaleString("en");

function sumCells(s: UsageSums): string {
  return `${n(s.inputTokens).padStart(14)} ${n(s.outputTokens).padStart(14)} ${n(s.totalTokens).padStart(14)} ${n(s.messages).padStart(10)}`;
}

const HEAD = `${"input".padStart(14)} ${"output".padStart(14)} ${"total".padStart(14)} ${"messages".padStart(10)}`;

function periodCommand(period: Period): Command {
  return async (ctx) => {
    const report = usageByPeriod(await freshDb(ctx), period, filterOf(ctx));
    if (ctx.json) {
      ctx.out(
        JSON.stringify(
          { [period]: report.rows, totals: report.totals, scope: report.scope, note: report.note },
          null,
          2,
        ),
      );
      return 0;
    }
    ctx.out(
      `Tokens per ${period === "daily" ? "day" : period === "weekly" ? "week (from Monday)" : "month"}, ${report.scope.timezone}`,
    );
    ctx.out(`${"".padEnd(12)}${HEAD}  models`);
    for (const r of report.rows) ctx.out(`${r.period.padEnd(12)}${sumCells(r)}  ${r.modelsUsed.join(", ")}`);
    ctx.out(`${"Total".padEnd(12)}${sumCells(report.totals)}`);
    if (report.note) ctx.out(report.note);
    return 0;
  };
}

const chats: Command = async (ctx) => {
  const limit = flagString(ctx, "limit");
  if (limit !== undefined && !/^\d+$/.test(limit)) throw new OdaError("bad_input", "--limit takes a whole number.");
  const report = usageByChat(await freshDb(ctx), filterOf(ctx), limit === undefined ? 20 : Number(limit));
  if (ctx.json) {
    ctx.out(JSON.stringify(report, null, 2));
    return 0;
  }
  ctx.out(`${"chat".padEnd(24)}${HEAD}  title`);
  for (const c of report.chats) ctx.out(`${c.id.slice(0, 23).padEnd(24)}${sumCells(c)}  ${c.title ?? "(untitled)"}`);
  return 0;
};

const folders: Command = async (ctx) => {
  const report = usageByFolder(await freshDb(ctx), filterOf(ctx));
  if (ctx.json) {
    ctx.out(JSON.stringify(report, null, 2));
    return 0;
  }
  ctx.out(`${HEAD} ${"chats".padStart(8)}  working folder`);
  for (const f of report.folders)
    ctx.out(`${sumCells(f)} ${n(f.chats).padStart(8)}  ${f.cwd ?? "(no working folder)"}`);
  return 0;
};

const storage: Command = async (ctx) => {
  const report = storageReport(await freshDb(ctx), { cwd: flagString(ctx, "cwd") });
  if (ctx.json) ctx.out(JSON.stringify(report, null, 2));
  else ctx.out(formatStorage(report));
  return 0;
};

const OPTIONS = `Options:
  --since DATE     from this local day (YYYY-MM-DD or YYYYMMDD)
  --until DATE     to this local day, included
  --cwd DIR        only chats working in this folder ("" for chats with none)
  --model M        only messages of this model
  --tz ZONE        group days in this IANA zone (default: this computer's)
  --no-refresh     read the index as it is (default: refresh it first)
  --json           one JSON document`;

const options = {
  since: { type: "string" },
  until: { type: "string" },
  cwd: { type: "string" },
  model: { type: "string" },
  tz: { type: "string" },
  limit: { type: "string" },
  "no-refresh": { type: "boolean" },
} as const;

function entry(summary: string, usage: string, run: Command) {
  return { summary, usage: `${usage}\n\n${OPTIONS}\n`, options, run };
}

/** The usage and storage commands. */
export const usageCommands = {
  "usage daily": entry(
    "tokens and messages per day, by model",
    "oda-admin usage daily [options]",
    periodCommand("daily"),
  ),
  "usage weekly": entry("tokens and messages per week", "oda-admin usage weekly [options]", periodCommand("weekly")),
  "usage monthly": entry(
    "tokens and messages per month",
    "oda-admin usage monthly [options]",
    periodCommand("monthly"),
  ),
  "usage chats": entry(
    "the chats with the most tokens [--limit N, 0: all]",
    "oda-admin usage chats [--limit N] [options]",
    chats,
  ),
  "usage folders": entry("tokens and messages per working folder", "oda-admin usage folders [options]", folders),
  storage: entry("disk space per folder, chat and log generation", "oda-admin storage [--cwd DIR] [--json]", storage),
};
