import type { ChatRow } from "@/lib/types";

/** Sorting, filtering and grouping of the chat list (pure, so 100,000 rows stay cheap to recompute). */

export type SortKey = "title" | "folder" | "lastActivity" | "messages" | "tokens" | "format" | "lock" | "problems";
export interface Sort {
  key: SortKey;
  dir: "asc" | "desc";
}

export interface ListFilters {
  /** A group folder name, or "" for every working folder. */
  group: string;
  /** "" | none | live | stale | unknown */
  lock: string;
  problemsOnly: boolean;
  /** "" | "none" | a format number as text */
  format: string;
  /** Matched against id and title, case-insensitive. */
  find: string;
}

/** Every chat: what Clear filters sets. */
export const NO_FILTERS: ListFilters = { group: "", lock: "", problemsOnly: false, format: "", find: "" };

/**
 * The direction a column sorts in when it is chosen: names A to Z, numbers and moments largest (newest) first,
 * the way a person looks for the biggest chats or the latest activity.
 */
export function firstDirection(key: SortKey): Sort["dir"] {
  return key === "title" || key === "folder" ? "asc" : "desc";
}

/** One item of the virtualised list: a working-folder heading or a chat. */
export type ListItem = { type: "group"; group: string; label: string; count: number } | { type: "chat"; row: ChatRow };

const LOCK_ORDER: Record<string, number> = { none: 0, unknown: 1, live: 2, stale: 3 };

function value(row: ChatRow, key: SortKey): string | number {
  switch (key) {
    case "title":
      return (row.title ?? row.id).toLowerCase();
    case "folder":
      return row.cwd ?? "";
    case "lastActivity":
      return row.lastActivity ? Date.parse(row.lastActivity) || 0 : 0;
    case "messages":
      return row.messages;
    case "tokens":
      return row.tokens;
    case "format":
      return row.format ?? 0;
    case "lock":
      return LOCK_ORDER[row.lock.state] ?? 0;
    case "problems":
      return row.problems.length;
  }
}

/** Rows matching every filter. */
export function filterRows(rows: ChatRow[], f: ListFilters): ChatRow[] {
  const needle = f.find.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (!f.group || r.group === f.group) &&
      (!f.lock || r.lock.state === f.lock) &&
      (!f.problemsOnly || r.problems.length > 0) &&
      (!f.format || (f.format === "none" ? r.format === null : String(r.format) === f.format)) &&
      (!needle || r.id.toLowerCase().includes(needle) || (r.title ?? "").toLowerCase().includes(needle)),
  );
}

/** Rows sorted by one column (ties by id, so the order is stable while rows stream in). */
export function sortRows(rows: ChatRow[], sort: Sort): ChatRow[] {
  const sign = sort.dir === "asc" ? 1 : -1;
  return rows.slice().sort((a, b) => {
    const va = value(a, sort.key);
    const vb = value(b, sort.key);
    if (va < vb) return -sign;
    if (va > vb) return sign;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

/** Sorted rows under a heading per working folder (`_no-cwd` last), or flat. */
export function groupRows(rows: ChatRow[], grouped: boolean): ListItem[] {
  if (!grouped) return rows.map((row) => ({ type: "chat", row }));
  const groups = new Map<string, ChatRow[]>();
  for (const row of rows) {
    const list = groups.get(row.group);
    if (list) list.push(row);
    else groups.set(row.group, [row]);
  }
  const names = [...groups.keys()].sort((a, b) => {
    const ca = groups.get(a)?.[0]?.cwd ?? null;
    const cb = groups.get(b)?.[0]?.cwd ?? null;
    if (ca === null) return 1;
    if (cb === null) return -1;
    return ca < cb ? -1 : ca > cb ? 1 : 0;
  });
  const items: ListItem[] = [];
  for (const name of names) {
    const list = groups.get(name) ?? [];
    items.push({
      type: "group",
      group: name,
      label: list[0]?.cwd ?? "_no-cwd (no working folder)",
      count: list.length,
    });
    for (const row of list) items.push({ type: "chat", row });
  }
  return items;
}

/** The working folders present, for the filter's options. */
export function groupOptions(rows: ChatRow[]): { group: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const r of rows) if (!seen.has(r.group)) seen.set(r.group, r.cwd ?? "_no-cwd");
  return [...seen.entries()].map(([group, label]) => ({ group, label })).sort((a, b) => (a.label < b.label ? -1 : 1));
}
