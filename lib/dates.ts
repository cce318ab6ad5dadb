/**
 * The one way the dashboard shows a moment: the reader's locale with the time
 * zone named (`Dec 1, 2026, 6:32:13 PM GMT+9`), the exact ISO time kept for the
 * hover title. Dates of a report's buckets (a day, a week) are not moments and
 * keep their own labels.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(locale: string | undefined, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${locale ?? ""}|${timeZone ?? ""}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "short",
      timeZone,
    });
    formats.set(key, format);
  }
  return format;
}

/** Where a moment is shown: `undefined` is the reader's own locale or time zone. */
export interface MomentZone {
  locale?: string;
  timeZone?: string;
}

/** The moment of an ISO time, or null when it is missing or not a date. */
export function parseMoment(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** A moment as shown (`–` when missing; an unreadable value is shown as it is). */
export function formatMoment(iso: string | null | undefined, zone: MomentZone = {}): string {
  const moment = parseMoment(iso);
  if (!moment) return iso || "–";
  return formatOf(zone.locale, zone.timeZone).format(moment);
}

/** The exact time for a title attribute: the ISO form in UTC, as stored. */
export function exactMoment(iso: string | null | undefined): string | undefined {
  return parseMoment(iso)?.toISOString();
}
