import { SEARCH_ROLES } from "./extract";

/**
 * The per-entry table kept small: an entry's role is stored as its number
 * among the search roles (one byte, none for the first two) and its time as
 * milliseconds since 1970 (six bytes instead of 24) whenever the view reads
 * them back as the very same text; any other role or time is stored as
 * written. The `lines` view gives every entry's role and time as text again,
 * so what a search filters on and shows is byte for byte what the log said.
 */

const ROLE_NUMBER = new Map<string, number>(SEARCH_ROLES.map((role, i) => [role, i]));
/** A time the view reads back from milliseconds: an ISO instant in UTC with milliseconds, from 1970 to 9999. */
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The stored form of an entry's role. */
export function roleCode(role: string): number | string {
  return ROLE_NUMBER.get(role) ?? role;
}

/** The stored form of an entry's time. */
export function timeCode(ts: string | null): number | string | null {
  if (ts === null || !ISO_MS.test(ts)) return ts;
  const ms = Date.parse(ts);
  return ms >= 0 && new Date(ms).toISOString() === ts ? ms : ts;
}

const roleText = `CASE r ${SEARCH_ROLES.map((role, i) => `WHEN ${i} THEN '${role}'`).join(" ")} ELSE r END`;
// Integer arithmetic only: a float's rounding could change the milliseconds.
const timeText =
  "CASE WHEN typeof(t) = 'integer' THEN strftime('%Y-%m-%dT%H:%M:%S', t / 1000, 'unixepoch') || printf('.%03dZ', t % 1000) ELSE t END";

/** The entries table and the `lines` view over it (id, line, role, ts) that searches read. */
export const ENTRIES_SCHEMA = `
-- One row per searchable entry, without its text: cid * 2^24 + the entry's number in the chat (see ENTRY_SPAN),
-- its line, role (r) and time (t) in the compact forms of entry-codec.ts.
CREATE TABLE entries (id INTEGER PRIMARY KEY, line INTEGER NOT NULL, r NOT NULL, t);
-- The role and time filters join this view.
CREATE VIEW lines (id, line, role, ts) AS SELECT id, line, ${roleText}, ${timeText} FROM entries;`;
