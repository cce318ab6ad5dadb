import { queryOptions } from "@tanstack/react-query";
import { readBy } from "@/components/shell/read-query";
import { queryKeys } from "@/lib/query-keys";

/** The Repairs page's read: polled every second while a conversion runs, every five otherwise. */
export const repairsQueries = {
  overview: () =>
    queryOptions({
      queryKey: queryKeys.repairs.overview(),
      ...readBy("repairs.overview", {}),
      refetchInterval: (q) => (q.state.data?.job?.phase === "running" ? 1_000 : 5_000),
    }),
};
