import type { Db } from "../search-index/db";
import { localDay } from "./periods";
import { checkTimeZone, localDaySql, type OffsetSpan, offsetSpans, parseDay, systemTimeZone } from "./tz";

/**
 * What every Insights report is narrowed by, and the SQL that narrows the
 * usage table to it (one place, so the CLI and the page count the same rows).
 */

/** The filters of a report: local dates (inclusive), a working folder, a model and the zone days are grouped in. */
export interface InsightsFilter {
  /** `YYYY-MM-DD` or `YYYYMMDD`, local to `tz`. */
  since?: string;
  until?: string;
  /** A chat's working folder, exactly; `""` for chats with none. */
  cwd?: string;
  model?: string;
  /** Only messages that name no model (users' lines, format 1): the "(no model)" row's chats. Wins over `model`. */
  withoutModel?: boolean;
  /** An IANA zone; default the system's. */
  tz?: string;
}

/** A filter resolved against the index: the SQL for `usage u` rows and the local-day expression. */
export interface Scope {
  tz: string;
  since: number | null;
  until: number | null;
  cwd: string | null;
  model: string | null;
  /** SQL of the row's local day number (over `u.q`). */
  day: string;
  /** Conditions on `usage u` (dated rows only) and their parameters. */
  where: string;
  params: unknown[];
  /** The working-folder and model conditions alone (on `usage u`), and their parameters. */
  filterWhere: string;
  filterParams: unknown[];
  /** The zone's offsets over the covered range, and the local days a period report covers. */
  spans: OffsetSpan[];
  firstDay: number;
  lastDay: number;
}

const QD = 96;

/** The quarter-hour range the usage table and the chats' start times cover. */
function coveredRange(db: Db): [number, number] {
  const r = db
    .prepare(
      `SELECT (SELECT min(q) FROM usage WHERE q >= 0) AS lo, (SELECT max(q) FROM usage) AS hi,
        (SELECT min(start_q) FROM chats) AS clo, (SELECT max(start_q) FROM chats) AS chi`,
    )
    .get() as { lo: number | null; hi: number | null; clo: number | null; chi: number | null };
  const los = [r.lo, r.clo].filter((n): n is number => n !== null && n >= 0);
  const his = [r.hi, r.chi].filter((n): n is number => n !== null && n >= 0);
  if (!los.length || !his.length) return [0, 0];
  return [Math.min(...los), Math.max(...his)];
}

/** Resolves a filter: checks its values and builds the SQL over the index's actual range. */
export function resolveScope(db: Db, filter: InsightsFilter = {}): Scope {
  const tz = checkTimeZone(filter.tz || systemTimeZone());
  const since = filter.since ? parseDay(filter.since, "--since") : null;
  const until = filter.until ? parseDay(filter.until, "--until") : null;
  let [lo, hi] = coveredRange(db);
  // A day's rows lie within a day and a half of its UTC midnight in any zone (offsets are -12 h to +14 h).
  if (since !== null) lo = Math.max(lo, (since - 2) * QD);
  if (until !== null) hi = Math.min(hi, (until + 2) * QD);
  if (hi < lo) hi = lo;
  const spans = offsetSpans(tz, lo, hi);
  const day = localDaySql("u.q", spans);
  const conds: string[] = [];
  const params: unknown[] = [];
  const filterConds: string[] = [];
  const filterParams: unknown[] = [];
  if (since !== null) {
    conds.push(`u.q >= ? AND ${day} >= ?`);
    params.push((since - 2) * QD, since);
  }
  if (until !== null) {
    conds.push(`u.q < ? AND ${day} <= ?`);
    params.push((until + 2) * QD, until);
  }
  const cwd = filter.cwd === undefined ? null : filter.cwd;
  if (cwd !== null) {
    conds.push(
      cwd === ""
        ? "u.cid IN (SELECT cid FROM chats WHERE cwd IS NULL)"
        : "u.cid IN (SELECT cid FROM chats WHERE cwd = ?)",
    );
    if (cwd !== "") params.push(cwd);
  }
  // "" is the model of messages that name none: the usage table keeps them under it.
  const model = filter.withoutModel ? "" : filter.model || null;
  if (model !== null) {
    conds.push(model === "" ? "u.model = ''" : "u.model = ?");
    if (model !== "") params.push(model);
  }
  for (const c of conds) if (!c.startsWith("u.q")) filterConds.push(c);
  if (cwd) filterParams.push(cwd);
  if (model) filterParams.push(model);
  const rest = conds.length ? conds.join(" AND ") : "1";
  return {
    tz,
    since,
    until,
    cwd,
    model,
    day,
    where: `u.q >= 0 AND ${rest}`,
    params,
    filterWhere: filterConds.length ? filterConds.join(" AND ") : "1",
    filterParams,
    spans,
    firstDay: since ?? localDay(spans, lo),
    lastDay: until ?? localDay(spans, hi),
  };
}

/**
 * The conditions chat and folder totals use: dated messages only, as the
 * period reports count, so the per-chat sums add up to the daily totals for
 * the same filter (a message with no readable time falls on no day).
 */
export function totalsWhere(scope: Scope): string {
  return scope.where;
}
