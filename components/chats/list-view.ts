import { inGroups } from "@/lib/chats/list-filter";
import type { ChatRow, ChatSort, ChatSortKey } from "@/lib/types";

/** Sorting, filtering and grouping of the chat list (pure, so 100,000 rows stay cheap to recompute). */

export {
  filterRows,
  formatOptions,
  groupOptions,
  hasFormat,
  type ListFilters,
  NO_FILTERS,
  type StartedRange,
  startedRange,
} from "@/lib/chats/list-filter";

export type SortKey = ChatSortKey;
export type Sort = ChatSort;

/**
 * The direction a column sorts in when it is chosen: names A to Z, numbers and moments largest (newest) first,
 * the way a person looks for the biggest chats or the latest activity.
 */
export function firstDirection(key: SortKey): Sort["dir"] {
  return key === "title" || key === "folder" ? "asc" : "desc";
}

/** One item of the virtualised list: a working-folder heading, a chat, or the place of a chat not yet listed. */
export type ListItem =
  | { type: "group"; group: string; label: string; count: number }
  | { type: "chat"; row: ChatRow; place?: number }
  | { type: "pending"; group: string; slot: number; place?: number };

/**
 * The items of a list read a window at a time: each place of the list as filtered, under its group's heading
 * when grouped, holding its row once its window is read (`rowAt`) and a pending place until then.
 */
export function windowItems(
  shown: number,
  groups: { group: string; label: string; count: number }[] | null,
  rowAt: (place: number) => ChatRow | undefined,
): ListItem[] {
  const items: ListItem[] = [];
  const fill = (group: string, from: number, count: number) => {
    for (let slot = 0; slot < count; slot++) {
      const place = from + slot;
      const row = rowAt(place);
      items.push(row ? { type: "chat", row, place } : { type: "pending", group, slot, place });
    }
  };
  if (!groups) fill("", 0, shown);
  else {
    let place = 0;
    for (const g of groups) {
      items.push({ type: "group", ...g });
      fill(g.group, place, g.count);
      place += g.count;
    }
  }
  return items;
}

/** The first and last places of the list among items `first`–`last` (headings hold none); null when none. */
export function placesIn(items: ListItem[], first: number, last: number): { first: number; last: number } | null {
  let lo = Number.POSITIVE_INFINITY;
  let hi = -1;
  for (let i = Math.max(0, first); i <= Math.min(last, items.length - 1); i++) {
    const place = (items[i] as ListItem & { place?: number }).place;
    if (place === undefined) continue;
    lo = Math.min(lo, place);
    hi = Math.max(hi, place);
  }
  return hi < 0 ? null : { first: lo, last: hi };
}

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

/**
 * Rows sorted by one column as the index orders them (`lib/search-index/list-order.ts`): in the column's first
 * direction ties go by id A to Z, and the other direction is that list reversed (ties Z to A). Each row's key
 * is worked out once, not in every comparison: 100,000 rows make about 1.7 million comparisons, and a
 * `Date.parse` or `toLowerCase` in each froze the page for a second or more. The index's rows are sorted by
 * the server, so this runs for a folder's rows.
 */
export function sortRows(rows: ChatRow[], sort: Sort): ChatRow[] {
  const first = firstDirection(sort.key);
  const sign = first === "asc" ? 1 : -1;
  const keyed = rows.map((row) => ({ row, key: value(row, sort.key) }));
  keyed.sort((a, b) => {
    if (a.key < b.key) return -sign;
    if (a.key > b.key) return sign;
    return a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0;
  });
  if (sort.dir !== first) keyed.reverse();
  return keyed.map((k) => k.row);
}

/** Sorted rows under a heading per working folder (`_no-cwd` last), or flat. */
export function groupRows(rows: ChatRow[], grouped: boolean): ListItem[] {
  if (!grouped) return rows.map((row) => ({ type: "chat", row }));
  const items: ListItem[] = [];
  for (const g of inGroups(rows)) {
    items.push({ type: "group", group: g.group, label: g.label, count: g.rows.length });
    for (const row of g.rows) items.push({ type: "chat", row });
  }
  return items;
}
