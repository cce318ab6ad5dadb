import type { Db } from "../index/db";
import { type InsightsFilter, resolveScope } from "./scope";
import { dayName, localDaySql, offsetSpans } from "./tz";
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

/** The quarter hour a chat started, in SQL over `chats c`. */
const STARTED_Q = "CAST(unixepoch(c.first_activity, 'subsec') * 4 / 3600 AS INTEGER)";

/** Chats started and active per day (the model filter narrows only "active"), chats per folder. */
export function activityByDay(db: Db, filter: InsightsFilter = {}): ActivityReport {
  const scope = resolveScope(db, filter);
  const active = db
    .prepare(`SELECT ${scope.day} AS d, count(DISTINCT u.cid) AS n FROM usage u WHERE ${scope.where} GROUP BY d`)
    .all(...scope.params) as { d: number; n: number }[];
  // Started days use the same offsets, over the chats' start quarter hours.
  const range = db
    .prepare(`SELECT min(${STARTED_Q}) AS lo, max(${STARTED_Q}) AS hi FROM chats c WHERE c.first_activity IS NOT NULL`)
    .get() as { lo: number | null; hi: number | null };
  const startedDay =
    range.lo === null || range.hi === null ? null : localDaySql("s.q", offsetSpans(scope.tz, range.lo, range.hi));
  const conds: string[] = [];
  const params: unknown[] = [];
  if (scope.cwd !== null) {
    conds.push(scope.cwd === "" ? "s.cwd IS NULL" : "s.cwd = ?");
    if (scope.cwd !== "") params.push(scope.cwd);
  }
  if (startedDay && scope.since !== null) {
    conds.push(`${startedDay} >= ?`);
    params.push(scope.since);
  }
  if (startedDay && scope.until !== null) {
    conds.push(`${startedDay} <= ?`);
    params.push(scope.until);
  }
  const where = conds.length ? conds.join(" AND ") : "1";
  const fromChats = `(SELECT ${STARTED_Q} AS q, c.cwd AS cwd FROM chats c) s`;
  const started = startedDay
    ? (db
        .prepare(
          `SELECT ${startedDay} AS d, count(*) AS n FROM ${fromChats} WHERE s.q IS NOT NULL AND ${where} GROUP BY d`,
        )
        .all(...params) as { d: number; n: number }[])
    : [];
  const folders = db
    .prepare(
      `SELECT s.cwd AS cwd, count(*) AS n FROM ${fromChats} WHERE ${where} GROUP BY s.cwd ORDER BY n DESC, s.cwd`,
    )
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
