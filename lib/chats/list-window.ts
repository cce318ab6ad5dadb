import { keepsAll, type ListFilters, NO_FILTERS } from "./list-filter";
import type { ChatSort } from "./views";

/**
 * What the chat list asks of the index a window at a time (`chats.window`), made the same way by the page and
 * by the server that reads the first window into the page's HTML (`app/…/chats/page.tsx`), so the page finds
 * that window under the key it asks for.
 */

/** Rows a window read asks for: a screen is about 12 rows, so one read covers several screens. */
export const WINDOW_PAGE = 100;

/** One list's windows: its listing (`""` with no filter), sort, grouping and filters (zone resolved). */
export interface WindowInput {
  view: string;
  sort: ChatSort;
  grouped: boolean;
  filters: ListFilters;
}

/**
 * The windows' input for a list, or `null` while a filtered list waits for its listing's name. With no filter
 * the window comes from the index's own indexes whatever the listing: no name, no filters, no zone.
 */
export function windowInput(
  ask: { view: string | null; sort: ChatSort; grouped: boolean; filters: ListFilters },
  zone: () => string,
): WindowInput | null {
  if (keepsAll(ask.filters)) return { view: "", sort: ask.sort, grouped: ask.grouped, filters: NO_FILTERS };
  if (ask.view === null) return null;
  // A start-day filter without a zone is in the browser's: the server's could be another day's hours.
  return { ...ask, view: ask.view, filters: { ...ask.filters, tz: ask.filters.tz || zone() } };
}

/** The read's input for window `page` of a list. */
export function windowRead(input: WindowInput, page: number) {
  return {
    view: input.view,
    sort: input.sort.key,
    dir: input.sort.dir,
    grouped: input.grouped,
    filters: input.filters,
    from: page * WINDOW_PAGE,
    to: (page + 1) * WINDOW_PAGE,
  };
}
