import type { Db } from "../search-index/db";
import { dayName, type OffsetSpan, weekStart } from "./tz";

/**
 * Local periods as ranges of UTC quarter hours. A local day, week or month is
 * one contiguous range of quarter hours (local time only moves forward), so a
 * report joins a small table of period ranges with the usage index: each
 * period is one index range scan, and rows arrive grouped by period, so
 * SQLite sums them without sorting the whole table.
 */

const QD = 96;

/** One period: its name and its quarter hours `[lo, hi)`. */
export interface PeriodRange {
  key: string;
  lo: number;
  hi: number;
}

function offsetAt(spans: OffsetSpan[], q: number): number {
  let off = (spans[0] as OffsetSpan).offset;
  for (const s of spans) {
    if (s.from > q) break;
    off = s.offset;
  }
  return off;
}

/** The local day number of quarter hour `q`. */
export function localDay(spans: OffsetSpan[], q: number): number {
  return Math.floor((q + offsetAt(spans, q)) / QD);
}

/** The first quarter hour of local day `day` (a day whose midnight is skipped by a change starts after it). */
export function dayStart(spans: OffsetSpan[], day: number): number {
  // Offsets lie within -12 h and +14 h: the start is within 64 quarter hours of the UTC midnight.
  let lo = day * QD - 64;
  let hi = day * QD + 64;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDay(spans, mid) >= day) hi = mid;
    else lo = mid;
  }
  return hi;
}

function monthStart(day: number): number {
  const d = new Date(day * 86_400_000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 86_400_000;
}

function nextMonth(day: number): number {
  const d = new Date(day * 86_400_000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 86_400_000;
}

/** The periods covering local days `first`..`last`, each clipped to them. */
export function periodRanges(
  spans: OffsetSpan[],
  period: "daily" | "weekly" | "monthly",
  first: number,
  last: number,
): PeriodRange[] {
  const out: PeriodRange[] = [];
  const end = dayStart(spans, last + 1);
  for (let day = first; day <= last; ) {
    const start = period === "daily" ? day : period === "weekly" ? weekStart(day) : monthStart(day);
    const next = period === "daily" ? day + 1 : period === "weekly" ? start + 7 : nextMonth(day);
    const key = period === "monthly" ? dayName(start).slice(0, 7) : dayName(start);
    out.push({ key, lo: dayStart(spans, Math.max(start, first)), hi: Math.min(dayStart(spans, next), end) });
    day = next;
  }
  return out;
}

/**
 * Fills the connection's temporary period table (`insights_periods`, numbered in order) and returns its name.
 * better-sqlite3 runs one statement at a time per connection, so each report fills it just before its query.
 */
export function loadPeriods(db: Db, ranges: PeriodRange[]): string {
  db.exec(
    "CREATE TEMP TABLE IF NOT EXISTS insights_periods (n INTEGER PRIMARY KEY, k TEXT NOT NULL, lo INTEGER NOT NULL, hi INTEGER NOT NULL)",
  );
  db.exec("DELETE FROM temp.insights_periods");
  const put = db.prepare("INSERT INTO temp.insights_periods (n, k, lo, hi) VALUES (?, ?, ?, ?)");
  db.transaction(() => {
    for (const [n, r] of ranges.entries()) put.run(n, r.key, r.lo, r.hi);
  })();
  return "temp.insights_periods";
}

/**
 * Fills the temporary model table (`insights_models`) with the one model asked for, or every model of the
 * index, found by index seeks (one per model) rather than a scan.
 */
export function loadModels(db: Db, only: string | null): string {
  db.exec("CREATE TEMP TABLE IF NOT EXISTS insights_models (n INTEGER PRIMARY KEY, model TEXT NOT NULL)");
  db.exec("DELETE FROM temp.insights_models");
  if (only !== null) db.prepare("INSERT INTO temp.insights_models (model) VALUES (?)").run(only);
  else
    db.exec(`INSERT INTO temp.insights_models (model)
      WITH RECURSIVE ms(model) AS (SELECT min(model) FROM usage
        UNION ALL SELECT (SELECT min(model) FROM usage WHERE model > ms.model) FROM ms WHERE ms.model IS NOT NULL)
      SELECT model FROM ms WHERE model IS NOT NULL`);
  return "temp.insights_models";
}
