import type { Db } from "../search-index/db";
import { loadModels, loadPeriods, periodRanges } from "./periods";
import { type InsightsFilter, resolveScope, type Scope, totalsWhere } from "./scope";
import { dayName } from "./tz";

/**
 * Token and message reports in `ccusage`'s habits (daily, weekly, monthly,
 * per chat, per folder), summed in SQLite from the index's usage table.
 */

/** The grouping of a period report. */
export type Period = "daily" | "weekly" | "monthly";

/** Token and message sums. `messagesWithoutUsage`: messages of format 1 chats, which record no tokens. */
export interface UsageSums {
  messages: number;
  messagesWithoutUsage: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** One model's share of a period or of the totals. */
export interface ModelBreakdown extends UsageSums {
  /** `""` for messages that name no model (format 1, users' messages). */
  modelName: string;
}

/** One day, week (named by its Monday) or month. */
export interface PeriodRow extends UsageSums {
  /** `YYYY-MM-DD` (day, or the week's Monday) or `YYYY-MM`. */
  period: string;
  /** Chats with a message in the period. */
  chats: number;
  modelsUsed: string[];
  modelBreakdowns: ModelBreakdown[];
}

/** What a filter resolved to, echoed in every report so its JSON says what it counts. */
export interface ReportScope {
  timezone: string;
  since: string | null;
  until: string | null;
  cwd: string | null;
  model: string | null;
}

/** A period report: one stable shape for the CLI's JSON and the page. */
export interface PeriodReport {
  period: Period;
  scope: ReportScope;
  rows: PeriodRow[];
  totals: UsageSums & { modelBreakdowns: ModelBreakdown[] };
  /** The sentence about format 1 chats when any message counted has no usage; else null. */
  note: string | null;
}

/** The sentence shown when format 1 messages are counted (they carry no usage; nothing is estimated). */
export function formatOneNote(n: number): string | null {
  if (!n) return null;
  return `${n.toLocaleString("en")} message${n === 1 ? "" : "s"} come from format 1 chats, which record no token usage: they are counted as messages with no tokens, not estimated.`;
}

/** The scope as reports echo it. */
export function reportScope(scope: Scope): ReportScope {
  return {
    timezone: scope.tz,
    since: scope.since === null ? null : dayName(scope.since),
    until: scope.until === null ? null : dayName(scope.until),
    cwd: scope.cwd,
    model: scope.model,
  };
}

type SumRow = { k: string | number; model: string; m: number; b: number; i: number; o: number };

function sums(r: { m: number; b: number; i: number; o: number }): UsageSums {
  return { messages: r.m, messagesWithoutUsage: r.b, inputTokens: r.i, outputTokens: r.o, totalTokens: r.i + r.o };
}

const SUMS_SQL = "sum(u.messages) AS m, sum(u.bare) AS b, sum(u.input) AS i, sum(u.output) AS o";

/** Input and output tokens and messages per day, week or month, split by model. */
export function usageByPeriod(db: Db, period: Period, filter: InsightsFilter = {}): PeriodReport {
  const scope = resolveScope(db, filter);
  const periods = loadPeriods(db, periodRanges(scope.spans, period, scope.firstDay, scope.lastDay));
  const models = loadModels(db, scope.model);
  // Models, then periods, outside; each (model, period) is one range of the model-first index, in group order.
  const rows = db
    .prepare(
      `SELECT p.k AS k, mm.model AS model, ${SUMS_SQL} FROM ${models} mm CROSS JOIN ${periods} p CROSS JOIN usage u
       WHERE u.model = mm.model AND u.q >= p.lo AND u.q < p.hi AND ${scope.filterWhere}
       GROUP BY mm.n, p.n ORDER BY p.n, mm.model`,
    )
    .all(...scope.filterParams) as SumRow[];
  const chats = db
    .prepare(
      `SELECT p.k AS k, count(DISTINCT u.cid) AS n FROM ${periods} p CROSS JOIN usage u
       WHERE u.q >= p.lo AND u.q < p.hi AND ${scope.filterWhere} GROUP BY p.n`,
    )
    .all(...scope.filterParams) as { k: string; n: number }[];
  const active = new Map(chats.map((c) => [c.k, c.n]));
  const out: PeriodRow[] = [];
  const byModel = new Map<string, { m: number; b: number; i: number; o: number }>();
  for (const r of rows) {
    let row = out[out.length - 1];
    const name = String(r.k);
    if (!row || row.period !== name) {
      row = {
        period: name,
        chats: active.get(name) ?? 0,
        modelsUsed: [],
        modelBreakdowns: [],
        ...sums({ m: 0, b: 0, i: 0, o: 0 }),
      };
      out.push(row);
    }
    row.modelBreakdowns.push({ modelName: r.model, ...sums(r) });
    if (r.model) row.modelsUsed.push(r.model);
    row.messages += r.m;
    row.messagesWithoutUsage += r.b;
    row.inputTokens += r.i;
    row.outputTokens += r.o;
    row.totalTokens += r.i + r.o;
    const t = byModel.get(r.model) ?? { m: 0, b: 0, i: 0, o: 0 };
    byModel.set(r.model, { m: t.m + r.m, b: t.b + r.b, i: t.i + r.i, o: t.o + r.o });
  }
  const modelBreakdowns = [...byModel]
    .map(([modelName, s]) => ({ modelName, ...sums(s) }))
    .sort((a, b) => b.totalTokens - a.totalTokens || b.messages - a.messages || (a.modelName < b.modelName ? -1 : 1));
  const total = modelBreakdowns.reduce(
    (t, m) => ({
      m: t.m + m.messages,
      b: t.b + m.messagesWithoutUsage,
      i: t.i + m.inputTokens,
      o: t.o + m.outputTokens,
    }),
    { m: 0, b: 0, i: 0, o: 0 },
  );
  return {
    period,
    scope: reportScope(scope),
    rows: out,
    totals: { ...sums(total), modelBreakdowns },
    note: formatOneNote(total.b),
  };
}

/** One chat's usage (`ccusage session`). */
export interface ChatUsage extends UsageSums {
  id: string;
  title: string | null;
  cwd: string | null;
  firstActivity: string | null;
  lastActivity: string | null;
  modelsUsed: string[];
}

/** True when the scope counts every message of its chats: their totals on the chats rows answer it. */
function allTime(scope: Scope): boolean {
  return scope.since === null && scope.until === null && scope.model === null;
}

/** The chats' condition of a working-folder filter over `chats c`. */
function cwdWhere(scope: Scope): { sql: string; params: unknown[] } {
  if (scope.cwd === null) return { sql: "1", params: [] };
  return scope.cwd === "" ? { sql: "c.cwd IS NULL", params: [] } : { sql: "c.cwd = ?", params: [scope.cwd] };
}

/**
 * Per-chat sums with the chat's id and folder: from the chats rows over all
 * time (less their undated messages), else from the usage rows in scope.
 */
function chatSums(scope: Scope): { sql: string; params: unknown[] } {
  if (allTime(scope)) {
    const w = cwdWhere(scope);
    // Messages with no readable time fall on no day: left out here as from the period reports, so the sums agree.
    return {
      sql: `SELECT c.cid, c.id AS sid, c.cwd, c.u_messages - coalesce(x.m, 0) AS m, c.u_bare - coalesce(x.b, 0) AS b,
              c.u_input - coalesce(x.i, 0) AS i, c.u_output - coalesce(x.o, 0) AS o
            FROM chats c LEFT JOIN (SELECT u.cid, ${SUMS_SQL} FROM usage u WHERE u.q < 0 GROUP BY u.cid) x ON x.cid = c.cid
            WHERE c.u_messages - coalesce(x.m, 0) > 0 AND ${w.sql}`,
      params: w.params,
    };
  }
  return {
    sql: `SELECT t.cid, c.id AS sid, c.cwd, t.m, t.b, t.i, t.o FROM
            (SELECT u.cid, ${SUMS_SQL} FROM usage u WHERE ${totalsWhere(scope)} GROUP BY u.cid) t JOIN chats c ON c.cid = t.cid`,
    params: scope.params,
  };
}

/**
 * The chats with the most tokens (then messages), `limit` of them (0: all),
 * and `totals` over every chat in scope (not only those listed), as
 * `ccusage session` gives them: the same sums as the period reports' totals
 * for the same filter.
 */
export function usageByChat(
  db: Db,
  filter: InsightsFilter = {},
  limit = 20,
): { scope: ReportScope; chats: ChatUsage[]; totals: UsageSums & { chats: number } } {
  const scope = resolveScope(db, filter);
  const source = chatSums(scope);
  const total = db
    .prepare(
      `SELECT count(*) AS n, coalesce(sum(t.m), 0) AS m, coalesce(sum(t.b), 0) AS b, coalesce(sum(t.i), 0) AS i,
              coalesce(sum(t.o), 0) AS o FROM (${source.sql}) t`,
    )
    .get(...source.params) as { n: number; m: number; b: number; i: number; o: number };
  const order = "ORDER BY t.i + t.o DESC, t.m DESC, t.sid";
  const rows = db
    .prepare(
      `SELECT c.cid, c.id, c.title, c.cwd, c.first_activity AS f, c.last_activity AS l, t.m, t.b, t.i, t.o
       FROM (SELECT * FROM (${source.sql}) t ${order} ${limit > 0 ? `LIMIT ${Math.floor(limit)}` : ""}) t
       JOIN chats c ON c.cid = t.cid ${order}`,
    )
    .all(...source.params) as {
    cid: number;
    id: string;
    title: string | null;
    cwd: string | null;
    f: string | null;
    l: string | null;
    m: number;
    b: number;
    i: number;
    o: number;
  }[];
  // The models of the chats shown only, read through the usage table's primary key.
  const modelsOf = db.prepare(
    `SELECT group_concat(model) FROM (SELECT DISTINCT u.model FROM usage u WHERE u.cid = ? AND u.model <> '' AND ${totalsWhere(scope)} ORDER BY u.model)`,
  );
  return {
    scope: reportScope(scope),
    totals: { chats: total.n, ...sums(total) },
    chats: rows.map((r) => {
      const models = modelsOf.pluck().get(r.cid, ...scope.params) as string | null;
      return {
        id: r.id,
        title: r.title,
        cwd: r.cwd,
        firstActivity: r.f,
        lastActivity: r.l,
        modelsUsed: models ? models.split(",") : [],
        ...sums(r),
      };
    }),
  };
}

/** One working folder's usage. */
export interface FolderUsage extends UsageSums {
  /** `null`: chats with no working folder. */
  cwd: string | null;
  chats: number;
}

/** Tokens and messages per working folder, most tokens first. */
export function usageByFolder(db: Db, filter: InsightsFilter = {}): { scope: ReportScope; folders: FolderUsage[] } {
  const scope = resolveScope(db, filter);
  const source = chatSums(scope);
  const rows = db
    .prepare(
      `SELECT t.cwd, count(*) AS n, sum(t.m) AS m, sum(t.b) AS b, sum(t.i) AS i, sum(t.o) AS o
       FROM (${source.sql}) t GROUP BY t.cwd ORDER BY i + o DESC, m DESC, t.cwd`,
    )
    .all(...source.params) as { cwd: string | null; n: number; m: number; b: number; i: number; o: number }[];
  return { scope: reportScope(scope), folders: rows.map((r) => ({ cwd: r.cwd, chats: r.n, ...sums(r) })) };
}
