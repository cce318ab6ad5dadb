import { queryOptions } from "@tanstack/react-query";
import { readBy } from "@/components/shell/read-query";
import { queryKeys } from "@/lib/query-keys";

/** The search page's reads: the index's status (polled) and its working folders. */
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
  folders: () =>
    queryOptions({ queryKey: queryKeys.search.folders(), ...readBy("search.folders", {}), staleTime: 30_000 }),
};
