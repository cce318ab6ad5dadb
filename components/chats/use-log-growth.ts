"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { pageStart } from "./paging";

/**
 * When a log's line count grows (follow mode's status poll), the pages from
 * the old last one on are fetched again (the last page was partial), then
 * `onGrow(before, now)` runs. Only this log's pages (and copy) are refetched.
 */
export function useLogGrowth(
  log: { id: string; generation: string; copy?: number; total: number | null },
  onGrow: (before: number, now: number) => void,
): void {
  const qc = useQueryClient();
  const { id, generation, copy, total } = log;
  const previous = useRef(total);
  const latest = useRef(onGrow);
  latest.current = onGrow;
  useEffect(() => {
    const before = previous.current;
    previous.current = total;
    if (total === null || before === null || total <= before) return;
    const from = pageStart(before || 1);
    qc.invalidateQueries({
      predicate: (q) => {
        const [, kind, qid, gen, start, which] = q.queryKey as unknown[];
        return (
          kind === "lines" &&
          qid === id &&
          gen === generation &&
          which === (copy ?? "chat") &&
          typeof start === "number" &&
          start >= from
        );
      },
    });
    latest.current(before, total);
  }, [total, qc, id, generation, copy]);
}
