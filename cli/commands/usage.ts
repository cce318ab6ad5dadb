import { OdaError } from "../../lib/errors";
import {
  type InsightsFilter,
  type Period,
  storageReport,
  type UsageSums,
  usageByChat,
  usageByFolder,
  usageByPeriod,
} from "../../lib/insights";
import { requireRoot } from "../../lib/roots";
import { handleOf, refreshIndex } from "../../lib/search-index";
import { type Command, type CommandContext, flagString } from "../context";
import { reportLeftOut } from "../left-out";
import { logFolder } from "../log-folder";
import { formatStorage } from "./storage-text";

/**
 * `oda-admin usage daily|weekly|monthly|chats|folders` and `oda-admin storage`,
 * in ccusage's habits: the index is refreshed first (only what changed is
 * read), `--since`/`--until` are local dates, `--tz` chooses the zone days
 * are grouped in, and `--json` prints one stable document per report: the
 * same numbers the Insights page shows.
 */

function logsOf(ctx: CommandContext): string {
  return requireRoot(ctx.roots, "logs");
}

/**
 * Refreshes the index (unless --no-refresh) and returns its connection, with
 * the files and folders the refresh could not read (left out of the figures).
 */
async function freshDb(ctx: CommandContext) {
  const logs = logsOf(ctx);
  const unreadable =
    ctx.flags["no-refresh"] === true
      ? []
      : (await refreshIndex(ctx.roots.state, logs, { compress: logFolder(ctx).compress })).unreadable;
  return { db: handleOf(ctx.roots.state, logs).db, unreadable };
}

/** The left-out items in a `--json` document: their count and sentences. */
function leftOutFields(unreadable: string[]) {
  return { leftOut: unreadable.length, problems: unreadable };
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
    const { db, unreadable } = await freshDb(ctx);
    const report = usageByPeriod(db, period, filterOf(ctx));
    if (ctx.json) {
      const doc = { [period]: report.rows, totals: report.totals, scope: report.scope, note: report.note };
      ctx.out(JSON.stringify({ ...doc, ...leftOutFields(unreadable) }, null, 2));
      return reportLeftOut(ctx, unreadable);
    }
    ctx.out(
      `Tokens per ${period === "daily" ? "day" : period === "weekly" ? "week (from Monday)" : "month"}, ${report.scope.timezone}`,
    );
    ctx.out(`${"".padEnd(12)}${HEAD}  models`);
    for (const r of report.rows) ctx.out(`${r.period.padEnd(12)}${sumCells(r)}  ${r.modelsUsed.join(", ")}`);
    ctx.out(`${"Total".padEnd(12)}${sumCells(report.totals)}`);
    if (report.note) ctx.out(report.note);
    return reportLeftOut(ctx, unreadable);
  };
}

const chats: Command = async (ctx) => {
  const limit = flagString(ctx, "limit");
  if (limit !== undefined && !/^\d+$/.test(limit)) throw new OdaError("bad_input", "--limit takes a whole number.");
  const { db, unreadable } = await freshDb(ctx);
  const report = usageByChat(db, filterOf(ctx), limit === undefined ? 20 : Number(limit));
  if (ctx.json) {
    ctx.out(JSON.stringify({ ...report, ...leftOutFields(unreadable) }, null, 2));
    return reportLeftOut(ctx, unreadable);
  }
  ctx.out(`${"chat".padEnd(24)}${HEAD}  title`);
  for (const c of report.chats) ctx.out(`${c.id.slice(0, 23).padEnd(24)}${sumCells(c)}  ${c.title ?? "(untitled)"}`);
  return reportLeftOut(ctx, unreadable);
};

const folders: Command = async (ctx) => {
  const { db, unreadable } = await freshDb(ctx);
  const report = usageByFolder(db, filterOf(ctx));
  if (ctx.json) {
    ctx.out(JSON.stringify({ ...report, ...leftOutFields(unreadable) }, null, 2));
    return reportLeftOut(ctx, unreadable);
  }
  ctx.out(`${HEAD} ${"chats".padStart(8)}  working folder`);
  for (const f of report.folders)
    ctx.out(`${sumCells(f)} ${n(f.chats).padStart(8)}  ${f.cwd ?? "(no working folder)"}`);
  return reportLeftOut(ctx, unreadable);
};

const storage: Command = async (ctx) => {
  const { db, unreadable } = await freshDb(ctx);
  const report = storageReport(db, { cwd: flagString(ctx, "cwd") });
  if (ctx.json) ctx.out(JSON.stringify({ ...report, ...leftOutFields(unreadable) }, null, 2));
  else ctx.out(formatStorage(report));
  return reportLeftOut(ctx, unreadable);
};

/** `cli/registry.ts` holds their summaries and options (`cli/usage-help.ts`). */
export const usageRuns = {
  "usage daily": periodCommand("daily"),
  "usage weekly": periodCommand("weekly"),
  "usage monthly": periodCommand("monthly"),
  "usage chats": chats,
  "usage folders": folders,
  storage,
} satisfies Record<string, Command>;
