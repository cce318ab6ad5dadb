import { byCwd, filterRows, type ListFilters, NO_CWD_LABEL } from "@/lib/chats/list-filter";
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

/** True when two sets of filters select the same chats. */
export function sameFilters(a: ListFilters, b: ListFilters): boolean {
  return (
    a.group === b.group &&
    a.lock === b.lock &&
    a.problemsOnly === b.problemsOnly &&
    a.format === b.format &&
    a.find.trim() === b.find.trim() &&
    a.started === b.started &&
    a.tz === b.tz
  );
}

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

/** The index's groups with their counts, known before their rows (see `ChatListBatch.groups`). */
export type GroupLayout = { group: string; cwd: string | null; count: number }[];

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
 * `Date.parse` or `toLowerCase` in each froze the page for a second or more. The index's rows come sorted
 * by the server, so this runs for a folder's rows, or after the folder check changed some.
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

/** How the rows held came: in the server's order (`order`, the index's), and still all in it (`inOrder`). */
export interface Served {
  order: Sort | null;
  inOrder: boolean;
}

/**
 * The rows the table shows. Rows the server sent in the order chosen are filtered, not sorted again. Rows
 * it sent in another order are about to be dropped for the new order's (asked of the server at the same
 * click): shown as they are until then, not sorted here (at 100,000 chats that sort was most of a click's
 * time, for rows replaced the moment after). Others (the folder's, or rows the folder check changed) are
 * sorted here.
 */
export function shownRows(rows: ChatRow[], filters: ListFilters, sort: Sort, served: Served): ChatRow[] {
  const filtered = filterRows(rows, filters);
  if (!served.order) return sortRows(filtered, sort);
  const same = served.order.key === sort.key && served.order.dir === sort.dir;
  return same && !served.inOrder ? sortRows(filtered, sort) : filtered;
}

/**
 * Sorted rows under a heading per working folder (`_no-cwd` last), or flat. With `layout` (the index's
 * groups, while the list streams in the index's order) every group's heading and its places are there from
 * the first paint: a row fills the next place of its group, so nothing below it moves as rows arrive.
 */
export function groupRows(rows: ChatRow[], grouped: boolean, layout: GroupLayout | null = null): ListItem[] {
  if (!grouped) return rows.map((row) => ({ type: "chat", row }));
  const groups = new Map<string, ChatRow[]>();
  for (const row of rows) {
    const list = groups.get(row.group);
    if (list) list.push(row);
    else groups.set(row.group, [row]);
  }
  const places = new Map((layout ?? []).map((g) => [g.group, g]));
  for (const g of layout ?? []) if (!groups.has(g.group)) groups.set(g.group, []);
  const cwdOf = (name: string) => groups.get(name)?.[0]?.cwd ?? places.get(name)?.cwd ?? null;
  const names = [...groups.keys()].sort((a, b) => byCwd(cwdOf(a), cwdOf(b)));
  const items: ListItem[] = [];
  for (const name of names) {
    const list = groups.get(name) ?? [];
    const count = Math.max(list.length, places.get(name)?.count ?? 0);
    items.push({ type: "group", group: name, label: cwdOf(name) ?? NO_CWD_LABEL, count });
    for (const row of list) items.push({ type: "chat", row });
    for (let slot = list.length; slot < count; slot++) items.push({ type: "pending", group: name, slot });
  }
  return items;
}
