import { groupName } from "../chats/names";
import { UNUSABLE_LOG } from "../chats/views";
import { type StartedDays, startedParam } from "./started";
import type { Period, ReportScope } from "./usage";

/**
 * The chat list's view of an Insights total: the filters it sums over (local
 * days in a zone, a model, a working folder), as the list's URL carries them,
 * so every total on the page links to exactly the chats it adds up. Plain
 * data: the page (browser) builds the links, the server reads them back.
 */

/**
 * The chats behind a total. Days are `YYYY-MM-DD`, inclusive, local to `tz`; `cwd` `""` is chats with none;
 * `model` `""` is messages that name no model. `sum: "bytes"` lists the chats a storage total sums (every chat
 * in the folder, with its bytes on disk; only `cwd` applies) instead of the chats with messages in the filter.
 */
export interface ChatsFilter {
  from?: string;
  to?: string;
  model?: string;
  cwd?: string;
  tz?: string;
  sum?: "bytes";
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const KEYS = ["from", "to", "model", "cwd", "tz", "sum"] as const;

/** The chat list's address for a filter (`/chats?from=…`), keys in a fixed order. */
export function filteredChatsHref(f: ChatsFilter): string {
  const q = new URLSearchParams();
  for (const k of KEYS) if (f[k] !== undefined) q.set(k, f[k] as string);
  const s = q.toString();
  return s ? `/chats?${s}` : "/chats";
}

/**
 * Reads a filter from the chat list's search params; null when it carries none (the plain list). `started=`
 * is the plain list's own filter (chats counted, not summed: `listHref`), which its `tz=` goes with.
 */
export function readChatsFilter(raw: Record<string, string | string[] | undefined>): ChatsFilter | null {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  if (first(raw.started) !== undefined) return null;
  const f: ChatsFilter = {};
  const from = first(raw.from);
  const to = first(raw.to);
  const model = first(raw.model);
  const cwd = first(raw.cwd);
  const tz = first(raw.tz);
  if (first(raw.sum) === "bytes") {
    // A storage total sums every chat of a folder, whatever the dates and models.
    const f: ChatsFilter = { sum: "bytes" };
    if (cwd !== undefined && cwd.length <= 4096) f.cwd = cwd;
    return f;
  }
  if (from && DAY.test(from)) f.from = from;
  if (to && DAY.test(to)) f.to = to;
  if (model !== undefined && model.length <= 200) f.model = model;
  if (cwd !== undefined && cwd.length <= 4096) f.cwd = cwd;
  if (tz && tz.length <= 100) f.tz = tz;
  return Object.keys(f).length ? f : null;
}

/** The sentence naming a filter: "Chats active 2026-11-03 to 2026-11-09 with model X in /work/a (days in Europe/Paris)". */
export function describeChatsFilter(f: ChatsFilter): string {
  if (f.sum === "bytes")
    return f.cwd === undefined
      ? "Every chat, with its bytes on disk"
      : f.cwd === ""
        ? "Chats with no working folder, with their bytes on disk"
        : `Chats in ${f.cwd}, with their bytes on disk`;
  let s = "Chats active";
  if (f.from && f.to) s += f.from === f.to ? ` on ${f.from}` : ` ${f.from} to ${f.to}`;
  else if (f.from) s += ` from ${f.from}`;
  else if (f.to) s += ` up to ${f.to}`;
  if (f.model) s += ` with model ${f.model}`;
  else if (f.model === "") s += " with messages that name no model";
  if (f.cwd !== undefined) s += f.cwd === "" ? " with no working folder" : ` in ${f.cwd}`;
  if (f.tz) s += ` (days in ${f.tz})`;
  return s;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const later = (a: string | undefined, b: string | null) => (b !== null && (a === undefined || b > a) ? b : a);
const earlier = (a: string | undefined, b: string | null) => (b !== null && (a === undefined || b < a) ? b : a);

/** The report's own filter (its zone, dates, folder and model) as a chats filter. */
export function scopeFilter(scope: ReportScope): ChatsFilter {
  const f: ChatsFilter = { tz: scope.timezone };
  if (scope.since !== null) f.from = scope.since;
  if (scope.until !== null) f.to = scope.until;
  if (scope.model !== null) f.model = scope.model;
  if (scope.cwd !== null) f.cwd = scope.cwd;
  return f;
}

/**
 * The filter of one row of a period report: its days (a day, a week from its
 * Monday, a month), within the report's own dates, with the report's filters.
 */
export function periodFilter(scope: ReportScope, period: Period, key: string): ChatsFilter {
  let from = key;
  let to = key;
  if (period === "weekly") to = dayOf(Date.parse(`${key}T00:00:00Z`) + 6 * 86_400_000);
  else if (period === "monthly") {
    const [y, m] = key.split("-").map(Number) as [number, number];
    from = `${key}-01`;
    to = dayOf(Date.UTC(y, m, 0));
  }
  const base = scopeFilter(scope);
  return { ...base, from: later(from, scope.since), to: earlier(to, scope.until) };
}

/** The filter of one model's total (`""`: the messages that name no model). */
export function modelFilter(scope: ReportScope, model: string): ChatsFilter {
  return { ...scopeFilter(scope), model };
}

/** The filter of one day's "chats active" count: that day's chats, as its usage total. */
export function dayFilter(scope: ReportScope, day: string): ChatsFilter {
  return periodFilter(scope, "daily", day);
}

/** The chats a storage total sums: every chat of the report's folder, or of one folder (`null`: chats with none). */
export function storageFilter(cwd: string | null | undefined): ChatsFilter {
  return cwd === undefined ? { sum: "bytes" } : { sum: "bytes", cwd: cwd ?? "" };
}

/** The filter of one working folder's total (`null`: chats with none). */
export function folderFilter(scope: ReportScope, cwd: string | null): ChatsFilter {
  return { ...scopeFilter(scope), cwd: cwd ?? "" };
}

/**
 * The plain chat list's filters an Insights count of chats links to: the local days the chats started on (in
 * `tz`), and a working folder (`null`: chats with none), which the list filters by its group folder. The list
 * reads them from its URL (`components/chats/list-url.ts`) over the index's rows or the folder's alike.
 */
export interface ListFilter {
  started?: StartedDays;
  tz?: string;
  cwd?: string | null;
  /** The current log's format, or `UNUSABLE_LOG` / `NO_LOG_FILE` (`lib/chats/views.ts`). */
  format?: string;
}

/** The plain chat list's address for a filter: `/chats?folder=--%2Fwork%2Fa--&started=2026-10-25&tz=…`. */
export function listHref(f: ListFilter): string {
  const q = new URLSearchParams();
  if (f.cwd !== undefined) q.set("folder", groupName(f.cwd));
  if (f.format !== undefined) q.set("format", f.format);
  if (f.started) q.set("started", startedParam(f.started));
  if (f.started && f.tz) q.set("tz", f.tz);
  const s = q.toString();
  return s ? `/chats?${s}` : "/chats";
}

/** The chats one day's "Chats started" count counts: started that day, in the report's folder (any model). */
export function startedDayFilter(scope: ReportScope, day: string): ListFilter {
  return {
    started: { from: day, to: day },
    tz: scope.timezone,
    ...(scope.cwd === null ? {} : { cwd: scope.cwd }),
  };
}

/**
 * The chats one row of "Current logs per format" counts, in the report's folder (`null`: every folder; `""`:
 * chats with none): those whose current log has that format, or (`null`) whose log files are all unusable.
 */
export function formatChatsFilter(cwd: string | null, format: number | null): ListFilter {
  return { ...(cwd === null ? {} : { cwd }), format: format === null ? UNUSABLE_LOG : String(format) };
}

/**
 * The chats one row of "Chats per working folder" counts: every chat of the folder, or (with the report's
 * dates) those started on those days (any model).
 */
export function folderChatsFilter(scope: ReportScope, cwd: string | null): ListFilter {
  const dated = scope.since !== null || scope.until !== null;
  return {
    cwd,
    ...(dated ? { started: { from: scope.since, to: scope.until }, tz: scope.timezone } : {}),
  };
}
