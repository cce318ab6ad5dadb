import { queryOptions } from "@tanstack/react-query";
import { readBy } from "@/components/shell/read-query";
import { queryKeys } from "@/lib/query-keys";
import type { SearchParams } from "./search-params";

/** Chats a search shows at first, and each "Show more chats" adds. */
export const SEARCH_PAGE = 20;

/** The search page's reads: a search's results, the index's status (polled) and its working folders. */
export const searchQueries = {
  /**
   * Polled quickly while a background refresh runs, slowly otherwise; a poll
   * starts a refresh by itself when the log folder changed.
   */
  status: () =>
    queryOptions({
      queryKey: queryKeys.search.status(),
      ...readBy("search.status", {}),
      refetchInterval: (q) => (q.state.data?.job.running ? 700 : 15_000),
      retry: false,
    }),
  /**
   * A search's results, its first `chats` chats. The page prefetches the URL's search with these same options,
   * so its results come with the page's HTML rather than after the scripts load and ask for them.
   */
  results: ({ query, ...filters }: SearchParams, chats: number) =>
    queryOptions({
      queryKey: queryKeys.search.query(query, {
        ...filters,
        problems: filters.problems ? "1" : "",
        notes: filters.notes ? "1" : "",
        chats: String(chats),
      }),
      // Through GET like every other read: searches run side by side, never queued behind an action.
      ...readBy("search.results", {
        query,
        cwd: filters.cwd || undefined,
        role: filters.role || undefined,
        since: filters.since || undefined,
        until: filters.until || undefined,
        problems: filters.problems,
        withNotes: filters.notes,
        chats,
      }),
      enabled: query.trim().length > 0,
      retry: false,
    }),
  folders: () =>
    queryOptions({ queryKey: queryKeys.search.folders(), ...readBy("search.folders", {}), staleTime: 30_000 }),
};
