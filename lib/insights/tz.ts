import { OdaError } from "../errors";
import { QUARTER_MS } from "../search-index/quarter";

/**
 * Local days in SQL. SQLite has no time-zone database, so the zone's offset
 * changes over the range a report covers are found here (with Intl, exact)
 * and handed to SQL as a CASE over quarter-hour numbers: each row's local day
 * is `(q + offset in quarters) / 96`. Every zone's offset and every change of
 * it falls on a quarter hour (historic local mean times aside, rounded).
 */

const QUARTERS_PER_DAY = 96;
const DAY_MS = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

/** The user's zone: the system's, as `ccusage` uses by default. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** Checks a zone name; refuses an unknown one with a sentence. */
export function checkTimeZone(tz: string): string {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return tz;
  } catch {
    throw new OdaError(
      "bad_input",
      `"${tz}" is not a time zone this system knows (try an IANA name like Europe/Paris).`,
    );
  }
}

function formatOf(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    });
    formats.set(tz, f);
  }
  return f;
}

/** The zone's offset from UTC at `ms`, in whole quarter hours. */
export function offsetQuarters(tz: string, ms: number): number {
  const p: Record<string, number> = {};
  for (const part of formatOf(tz).formatToParts(new Date(ms))) p[part.type] = Number(part.value);
  const local = Date.UTC(p.year as number, (p.month as number) - 1, p.day, p.hour, p.minute);
  const utcMinute = Math.floor(ms / 60_000) * 60_000;
  return Math.round((local - utcMinute) / QUARTER_MS);
}

/** A stretch of quarter hours from `from` on with one offset. */
export interface OffsetSpan {
  from: number;
  offset: number;
}

/** The zone's offsets over quarter hours `lo`..`hi`: sampled weekly, each change found to its quarter hour. */
export function offsetSpans(tz: string, lo: number, hi: number): OffsetSpan[] {
  const week = 7 * QUARTERS_PER_DAY;
  const at = (q: number) => offsetQuarters(tz, q * QUARTER_MS);
  const spans: OffsetSpan[] = [{ from: lo, offset: at(lo) }];
  for (let a = lo; a < hi; a += week) {
    const b = Math.min(a + week, hi);
    let before = at(a);
    const end = at(b);
    // More than one change in a week has never happened; a changed week is bisected to its quarter hour.
    while (before !== end) {
      let x = a;
      let y = b;
      while (y - x > 1) {
        const m = Math.floor((x + y) / 2);
        if (at(m) === before) x = m;
        else y = m;
      }
      spans.push({ from: y, offset: at(y) });
      before = at(y);
      a = y;
    }
  }
  return spans;
}

/** The SQL of the local day number of the quarter-hour column `col` (days since 1970-01-01 local). */
export function localDaySql(col: string, spans: OffsetSpan[]): string {
  const first = spans[0] as OffsetSpan;
  if (spans.length === 1) return `((${col} + ${first.offset}) / ${QUARTERS_PER_DAY})`;
  const cases = spans.slice(1).map((s, i) => `WHEN ${col} < ${s.from} THEN ${(spans[i] as OffsetSpan).offset}`);
  const last = spans[spans.length - 1] as OffsetSpan;
  return `((${col} + CASE ${cases.join(" ")} ELSE ${last.offset} END) / ${QUARTERS_PER_DAY})`;
}

/** `YYYY-MM-DD` of a local day number. */
export function dayName(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The local day number of `YYYY-MM-DD` or `YYYYMMDD` (ccusage's form); refuses anything else. */
export function parseDay(value: string, flag: string): number {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
  if (!m || !Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== `${m[1]}-${m[2]}-${m[3]}`)
    throw new OdaError("bad_input", `${flag} takes a date as YYYY-MM-DD or YYYYMMDD; "${value}" is not one.`);
  return ms / DAY_MS;
}

/** The Monday (local day number) of the ISO week holding `day` (1970-01-01 was a Thursday). */
export function weekStart(day: number): number {
  return day - ((day + 3) % 7);
}
