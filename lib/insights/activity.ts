import type { Db } from "../search-index/db";
import { loadPeriods, periodRanges } from "./periods";
import { type InsightsFilter, resolveScope } from "./scope";
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
  const ranges = periodRanges(scope.spans, "daily", scope.firstDay, scope.lastDay);
  const periods = loadPeriods(db, ranges);
  const active = activeDays
    ? activeDays.map((r) => ({ k: r.period, n: r.chats }))
    : (db
        .prepare(
          `SELECT p.k AS k, count(DISTINCT u.cid) AS n FROM ${periods} p CROSS JOIN usage u
           WHERE u.q >= p.lo AND u.q < p.hi AND ${scope.filterWhere} GROUP BY p.n`,
        )
        .all(...scope.filterParams) as { k: string; n: number }[]);
  const cwd = scope.cwd === null ? "1" : scope.cwd === "" ? "c.cwd IS NULL" : "c.cwd = ?";
  const cwdParams = scope.cwd ? [scope.cwd] : [];
  const started = db
    .prepare(
      `SELECT p.k AS k, count(*) AS n FROM ${periods} p CROSS JOIN chats c
       WHERE c.start_q >= p.lo AND c.start_q < p.hi AND ${cwd} GROUP BY p.n`,
    )
    .all(...cwdParams) as { k: string; n: number }[];
  // Chats per folder: all of them, or those started in the date range.
  const dated = scope.since !== null || scope.until !== null;
  const range = dated ? "AND c.start_q >= ? AND c.start_q < ?" : "";
  const rangeParams = dated ? [ranges[0]?.lo ?? 0, ranges[ranges.length - 1]?.hi ?? 0] : [];
  const folders = db
    .prepare(
      `SELECT c.cwd AS cwd, count(*) AS n FROM chats c WHERE ${cwd} ${range} GROUP BY c.cwd ORDER BY n DESC, c.cwd`,
    )
    .all(...cwdParams, ...rangeParams) as { cwd: string | null; n: number }[];
  const days = new Map<string, ActivityDay>();
  const dayOf = (d: string) => {
    let row = days.get(d);
    if (!row) {
      row = { date: d, started: 0, active: 0 };
      days.set(d, row);
    }
    return row;
  };
  for (const r of started) dayOf(r.k).started = r.n;
  for (const r of active) dayOf(r.k).active = r.n;
  return {
    scope: reportScope(scope),
    days: [...days.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([, r]) => r),
    folders: folders.map((r) => ({ cwd: r.cwd, chats: r.n })),
  };
}
