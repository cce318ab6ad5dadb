import { isOdaError } from "../errors";
import { readStarted, startedQuarters, startedWithin, startedZone } from "../insights/started";
import type { ChatRow } from "./views";
import { NO_LOG_FILE, UNUSABLE_LOG } from "./views";

/**
 * The chat list's filters and the working-folder groups, pure and shared: the
 * page applies them to the rows it holds (a folder listed without an index),
 * and the server to the index's chats when the page reads the list a window
 * at a time (`server/views/chat-window.ts`), so both select the same chats.
 */

export interface ListFilters {
  /** A group folder name, or "" for every working folder. */
  group: string;
  /** "" | none | live | stale | unknown */
  lock: string;
  problemsOnly: boolean;
  /** "" | a format number as text | {@link NO_LOG_FILE} | {@link UNUSABLE_LOG} */
  format: string;
  /** Matched against id and title, case-insensitive. */
  find: string;
  /** The days chats started on, as `started=` spells them (`lib/insights/started.ts`); "" for any. */
  started: string;
  /** The zone those days are in; "" for this browser's. */
  tz: string;
}

/** Every chat: what Clear filters sets. */
export const NO_FILTERS: ListFilters = {
  group: "",
  lock: "",
  problemsOnly: false,
  format: "",
  find: "",
  started: "",
  tz: "",
};

/** What the filters read of a chat: a list row has it, and so has the server's short form of an index row. */
export type FilterableRow = Pick<ChatRow, "id" | "title" | "group" | "firstActivity" | "format"> & {
  lock: { state: string };
  problems: { length: number };
  generations: { length: number };
};

/** True when a row has the format a `format=` filter names (a chat with no current log has format null). */
export function hasFormat(row: Pick<FilterableRow, "format" | "generations">, format: string): boolean {
  if (format === NO_LOG_FILE) return row.format === null && row.generations.length === 0;
  if (format === UNUSABLE_LOG) return row.format === null && row.generations.length > 0;
  return String(row.format) === format;
}

/** The start-day filter resolved: its quarter hours in its zone, or the sentence saying why it cannot be used. */
export type StartedRange = { lo: number; hi: number; tz: string } | { error: string };

/** The quarter hours a `started=` filter keeps, in its zone; null when it is not set (or not a day). */
export function startedRange(f: Pick<ListFilters, "started" | "tz">): StartedRange | null {
  const days = readStarted(f.started);
  if (!days) return null;
  try {
    const tz = startedZone(f.tz);
    return { ...startedQuarters(days, tz), tz };
  } catch (error) {
    if (isOdaError(error)) return { error: error.message };
    throw error;
  }
}

/** True when the filters keep every chat (a start-day filter that names no day keeps every chat too). */
export function keepsAll(f: ListFilters): boolean {
  return !f.group && !f.lock && !f.problemsOnly && !f.format && !f.find.trim() && startedRange(f) === null;
}

/** Rows matching every filter (a start-day filter in a zone this system does not know keeps none). */
export function filterRows<R extends FilterableRow>(rows: R[], f: ListFilters): R[] {
  const needle = f.find.trim().toLowerCase();
  const started = startedRange(f);
  const range = started && "error" in started ? { lo: 0, hi: 0 } : started;
  return rows.filter(
    (r) =>
      (!f.group || r.group === f.group) &&
      (!range || startedWithin(r.firstActivity, range)) &&
      (!f.lock || r.lock.state === f.lock) &&
      (!f.problemsOnly || r.problems.length > 0) &&
      (!f.format || hasFormat(r, f.format)) &&
      (!needle || r.id.toLowerCase().includes(needle) || (r.title ?? "").toLowerCase().includes(needle)),
  );
}

/** How a group without a working folder is labelled. */
export const NO_CWD_LABEL = "_no-cwd (no working folder)";

/** Working folders A to Z, `_no-cwd` last. */
export function byCwd(a: string | null, b: string | null): number {
  if (a === null) return b === null ? 0 : 1;
  if (b === null) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Rows in groups by working folder, in the order the list shows them (working folders A to Z, `_no-cwd` last),
 * each with its label and its rows in the order given.
 */
export function inGroups<R extends Pick<ChatRow, "group" | "cwd">>(
  rows: R[],
): { group: string; label: string; rows: R[] }[] {
  const groups = new Map<string, R[]>();
  for (const row of rows) {
    const list = groups.get(row.group);
    if (list) list.push(row);
    else groups.set(row.group, [row]);
  }
  const cwdOf = (name: string) => groups.get(name)?.[0]?.cwd ?? null;
  return [...groups.keys()]
    .sort((a, b) => byCwd(cwdOf(a), cwdOf(b)))
    .map((group) => ({ group, label: cwdOf(group) ?? NO_CWD_LABEL, rows: groups.get(group) ?? [] }));
}

/** The working folders present, for the filter's options. */
export function groupOptions(rows: Pick<ChatRow, "group" | "cwd">[]): { group: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const r of rows) if (!seen.has(r.group)) seen.set(r.group, r.cwd ?? "_no-cwd");
  return [...seen.entries()].map(([group, label]) => ({ group, label })).sort((a, b) => (a.label < b.label ? -1 : 1));
}

/** The log formats present, lowest first, for the filter's options. */
export function formatOptions(rows: Pick<ChatRow, "format">[]): number[] {
  return [...new Set(rows.map((r) => r.format).filter((f): f is number => f !== null))].sort((a, b) => a - b);
}
