import type { Db } from "../index/db";
import { type InsightsFilter, resolveScope } from "./scope";
import { dayName } from "./tz";
import { type ReportScope, reportScope } from "./usage";

/** Chats started and active per local day, and chats per working folder. */

/** One day of activity. */
export interface ActivityDay {
  date: string;
  /** Chats whose first activity falls on the day. */
  started: number;
  /** Chats with at least one message on the day. */
  active: number;
}

/** Chats per working folder (started in the range, when one is given). */
export interface FolderChats {
  cwd: string | null;
  chats: number;
}

/** The activity report. */
export interface ActivityReport {
  scope: ReportScope;
  days: ActivityDay[];
  folders: FolderChats[];
}

/**
 * Chats started and active per day (the model filter narrows only "active"), chats per folder. `activeDays`:
 * the active chats per day of a daily usage report for the same filter, which counted them already.
 */
export function activityByDay(
  db: Db,
  filter: InsightsFilter = {},
  activeDays?: { period: string; chats: number }[],
): ActivityReport {
  const scope = resolveScope(db, filter);
  const active = activeDays
    ? activeDays.map((r) => ({ d: Date.parse(`${r.period}T00:00:00Z`) / 86_400_000, n: r.chats }))
    : (db
        .prepare(`SELECT ${scope.day} AS d, count(DISTINCT u.cid) AS n FROM usage u WHERE ${scope.where} GROUP BY d`)
        .all(...scope.params) as { d: number; n: number }[]);
  // Started days use the same offsets, over the chats' start quarter hours (covered by the scope's range).
  const startedDay = scope.day.replaceAll("u.q", "c.start_q");
  const conds: string[] = [];
  const params: unknown[] = [];
  if (scope.cwd !== null) {
    conds.push(scope.cwd === "" ? "c.cwd IS NULL" : "c.cwd = ?");
    if (scope.cwd !== "") params.push(scope.cwd);
  }
  if (scope.since !== null) {
    conds.push(`c.start_q >= ? AND ${startedDay} >= ?`);
    params.push((scope.since - 2) * 96, scope.since);
  }
  if (scope.until !== null) {
    conds.push(`c.start_q < ? AND ${startedDay} <= ?`);
    params.push((scope.until + 2) * 96, scope.until);
  }
  const where = conds.length ? conds.join(" AND ") : "1";
  const started = db
    .prepare(`SELECT ${startedDay} AS d, count(*) AS n FROM chats c WHERE c.start_q >= 0 AND ${where} GROUP BY d`)
    .all(...params) as { d: number; n: number }[];
  const folders = db
    .prepare(`SELECT c.cwd AS cwd, count(*) AS n FROM chats c WHERE ${where} GROUP BY c.cwd ORDER BY n DESC, c.cwd`)
    .all(...params) as { cwd: string | null; n: number }[];
  const days = new Map<number, ActivityDay>();
  const dayOf = (d: number) => {
    let row = days.get(d);
    if (!row) {
      row = { date: dayName(d), started: 0, active: 0 };
      days.set(d, row);
    }
    return row;
  };
  for (const r of started) dayOf(r.d).started = r.n;
  for (const r of active) dayOf(r.d).active = r.n;
  return {
    scope: reportScope(scope),
    days: [...days.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r),
    folders: folders.map((r) => ({ cwd: r.cwd, chats: r.n })),
  };
}
