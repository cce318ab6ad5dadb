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
 * The list's items as the table reads them, by index. A list read a window at a time has 100,000 places and
 * more: its items are made when asked for (those drawn), never all at once, on the server's render as in the
 * browser at each window read.
 */
export interface ListItems {
  readonly length: number;
  at(index: number): ListItem | undefined;
  /**
   * The item's key for the virtualiser, without making the item (it is asked for every item at each layout): a
   * chat's id (ids have no colon), a heading's `g:<group>`, a place not read yet its number.
   */
  keyAt(index: number): string | number;
  isGroup(index: number): boolean;
}

const keyOf = (item: ListItem | undefined): string | number =>
  item?.type === "group" ? `g:${item.group}` : item?.type === "chat" ? item.row.id : (item?.place ?? -1);

/** Items held whole (a folder's rows, sorted and grouped in the page). */
export function heldItems(items: ListItem[]): ListItems {
  return {
    length: items.length,
    at: (index) => items[index],
    keyAt: (index) => keyOf(items[index]),
    isGroup: (index) => items[index]?.type === "group",
  };
}

/**
 * The items of a list read a window at a time: each place of the list as filtered, under its group's heading
 * when grouped, holding its row once its window is read (`rowAt`) and a pending place until then.
 */
export function windowItems(
  shown: number,
  groups: { group: string; label: string; count: number }[] | null,
  rowAt: (place: number) => ChatRow | undefined,
): ListItems {
  // Each group's heading's index and first place, for a binary search by index.
  const heads: number[] = [];
  const firsts: number[] = [];
  let index = 0;
  let place = 0;
  for (const g of groups ?? []) {
    heads.push(index);
    firsts.push(place);
    index += g.count + 1;
    place += g.count;
  }
  const length = groups ? index : shown;
  // The virtualiser asks for every index in order at each layout: the last group found is tried first.
  let hint = 0;
  const inGroup = (g: number, at: number) =>
    (heads[g] as number) <= at && (g + 1 >= heads.length || at < (heads[g + 1] as number));
  /** The group `index` is in (its heading or one of its places), or -1 ungrouped. */
  const groupOf = (at: number): number => {
    if (!groups) return -1;
    if (inGroup(hint, at)) return hint;
    if (hint + 1 < heads.length && inGroup(hint + 1, at)) return ++hint;
    let lo = 0;
    let hi = heads.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((heads[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    hint = lo;
    return lo;
  };
  const placeAt = (at: number, g: number): number | null => {
    if (g < 0) return at;
    const slot = at - (heads[g] as number) - 1;
    return slot < 0 ? null : (firsts[g] as number) + slot;
  };
  return {
    length,
    at(at) {
      if (at < 0 || at >= length) return undefined;
      const g = groupOf(at);
      const p = placeAt(at, g);
      const group = g < 0 ? null : (groups?.[g] as { group: string; label: string; count: number });
      if (p === null) return { type: "group", ...(group as NonNullable<typeof group>) };
      const row = rowAt(p);
      if (row) return { type: "chat", row, place: p };
      return { type: "pending", group: group?.group ?? "", slot: g < 0 ? p : p - (firsts[g] as number), place: p };
    },
    keyAt(at) {
      const g = groupOf(at);
      const p = placeAt(at, g);
      if (p === null) return `g:${groups?.[g]?.group}`;
      return rowAt(p)?.id ?? p;
    },
    isGroup: (at) => placeAt(at, groupOf(at)) === null,
  };
}

/** The first and last places of the list among items `first`–`last` (headings hold none); null when none. */
export function placesIn(items: ListItems, first: number, last: number): { first: number; last: number } | null {
  let lo = Number.POSITIVE_INFINITY;
  let hi = -1;
  for (let i = Math.max(0, first); i <= Math.min(last, items.length - 1); i++) {
    const place = (items.at(i) as ListItem & { place?: number }).place;
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
