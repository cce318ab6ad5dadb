import { queryOptions } from "@tanstack/react-query";
import { readBy } from "@/components/shell/read-query";
import { queryKeys } from "@/lib/query-keys";

/**
 * The Repairs page's reads. The overview scans the whole log folder, so it is
 * not polled: it is read when the page opens, when the window gets focus
 * again, after each repair or undo, and when a conversion job ends. Only the
 * job (one small file) is polled, every second while it runs.
 */
export const repairsQueries = {
  overview: () =>
    queryOptions({
      queryKey: queryKeys.repairs.overview(),
      ...readBy("repairs.overview", {}),
      refetchOnWindowFocus: true,
    }),
  job: () =>
    queryOptions({
      queryKey: queryKeys.repairs.job(),
      ...readBy("repairs.job", {}),
      refetchInterval: (q) => (q.state.data?.phase === "running" ? 1_000 : false),
    }),
};
