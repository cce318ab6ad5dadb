import { startQuarter } from "../search-index/quarter";
import { dayStart } from "./periods";
import { checkTimeZone, offsetSpans, systemTimeZone } from "./tz";

/**
 * The chat list's filter by the day a chat started (`?started=2026-10-25`, or a range
 * `?started=2026-10-24..2026-10-26`, either end open, with `&tz=` the zone its days are in): the days
 * Insights' "Chats started" counts are in. A chat started at its first activity's quarter hour (the index's
 * `start_q`, `startQuarter`); a local day is the quarter hours from its first to the next day's first, found
 * from the zone's offsets as the reports find them (`periods.ts` `dayStart`), so a day of a daylight-saving
 * change has its 23 or 25 hours. Pure: the list filters its rows in the browser, over the index's rows or the
 * folder's alike.
 */

/** Local days, inclusive, `YYYY-MM-DD`; `null` is an open end. */
export interface StartedDays {
  from: string | null;
  to: string | null;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const QD = 96;

/** The day number (days since 1970-01-01) of a real `YYYY-MM-DD`, else null. */
function dayNumber(value: string): number | null {
  const m = DAY.exec(value);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === value ? ms / 86_400_000 : null;
}

/** Reads `started=` (a day, or `FROM..TO` with either end empty); null when it is absent or not one. */
export function readStarted(value: string | null | undefined): StartedDays | null {
  if (!value) return null;
  const [a, b, ...rest] = value.split("..");
  if (rest.length) return null;
  const from = a || null;
  const to = b === undefined ? from : b || null;
  if (from === null && to === null) return null;
  if ((from !== null && dayNumber(from) === null) || (to !== null && dayNumber(to) === null)) return null;
  return { from, to };
}

/** The `started=` value of some days (one day as itself). */
export function startedParam(days: StartedDays): string {
  return days.from !== null && days.from === days.to ? days.from : `${days.from ?? ""}..${days.to ?? ""}`;
}

/** The days in words: "on 2026-10-25", "2026-10-24 to 2026-10-26", "from …", "up to …". */
export function describeStartedDays(days: StartedDays): string {
  if (days.from !== null && days.to !== null)
    return days.from === days.to ? `on ${days.from}` : `${days.from} to ${days.to}`;
  return days.from !== null ? `from ${days.from}` : `up to ${days.to}`;
}

/** The zone a filter's days are in: the one named, or the system's (in a browser, the browser's). */
export function startedZone(tz: string | null | undefined): string {
  return checkTimeZone(tz || systemTimeZone());
}

/** The first quarter hour of local day `day` in `tz`, from the zone's offsets around it (exact across a change). */
function firstQuarterOf(day: number, tz: string): number {
  return dayStart(offsetSpans(tz, (day - 2) * QD, (day + 2) * QD), day);
}

/** The quarter hours `[lo, hi)` a chat's start falls in to have started on the days; an open end is infinite. */
export function startedQuarters(days: StartedDays, tz: string): { lo: number; hi: number } {
  const from = days.from === null ? null : dayNumber(days.from);
  const to = days.to === null ? null : dayNumber(days.to);
  return {
    lo: from === null ? Number.NEGATIVE_INFINITY : firstQuarterOf(from, tz),
    hi: to === null ? Number.POSITIVE_INFINITY : firstQuarterOf(to + 1, tz),
  };
}

/** True when a chat whose first activity is `firstActivity` started within the quarter hours (none: never). */
export function startedWithin(firstActivity: string | null | undefined, range: { lo: number; hi: number }): boolean {
  const q = startQuarter(firstActivity);
  return q !== null && q >= range.lo && q < range.hi;
}
