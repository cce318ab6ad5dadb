"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { indexStatusAction } from "@/app/_actions/search";
import { unwrap } from "@/components/ui/action-error";
import { queryKeys } from "@/lib/query-keys";

/**
 * The search index's status, polled (quickly while a background refresh runs;
 * polling starts a refresh by itself when the log folder changed), calling
 * `onRefreshEnd` each time a refresh ends, when what was read from the index
 * may have changed. The search page's panel and the Insights page share it.
 */
export function useIndexStatus(onRefreshEnd: () => void) {
  const status = useQuery({
    queryKey: queryKeys.search.status(),
    queryFn: () => unwrap(indexStatusAction({ refresh: "when-stale" })),
    refetchInterval: (q) => (q.state.data?.job.running ? 700 : 15_000),
    retry: false,
  });
  const running = status.data?.job.running ?? false;
  const wasRunning = useRef(false);
  const onEnd = useRef(onRefreshEnd);
  onEnd.current = onRefreshEnd;
  useEffect(() => {
    if (wasRunning.current && !running) onEnd.current();
    wasRunning.current = running;
  }, [running]);
  return status;
}
