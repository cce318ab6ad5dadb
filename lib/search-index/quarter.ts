/**
 * The usage index's unit of time, a UTC quarter hour, and a chat's start in it. Pure (no Node module): the
 * chat list in the browser finds a chat's start day by the same rule the index stores it by.
 */

/** Milliseconds in a quarter hour, the unit of `usage.q` and `chats.start_q`. */
export const QUARTER_MS = 900_000;

/**
 * The UTC quarter hour of a chat's first activity (`chats.start_q`, what "chats started" counts), or null
 * when it has none or its time cannot be read (such a chat started on no day).
 */
export function startQuarter(firstActivity: string | null | undefined): number | null {
  const ms = firstActivity ? Date.parse(firstActivity) : Number.NaN;
  return Number.isFinite(ms) && ms >= 0 ? Math.floor(ms / QUARTER_MS) : null;
}
