"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { searchQueries } from "./queries";

/**
 * The search index's status, polled (quickly while a background refresh runs;
 * polling starts a refresh by itself when the log folder changed), calling
 * `onRefreshEnd` each time a refresh ends, when what was read from the index
 * may have changed. The search page's panel and the Insights page share it.
 */
export function useIndexStatus(onRefreshEnd: () => void) {
  const status = useQuery(searchQueries.status());
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
