"use client";

import { useQueries, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { sourcePrefixOf } from "@/components/shell/query-client";
import { fetchRead } from "@/components/shell/read-query";
import { WINDOW_PAGE, windowInput, windowRead } from "@/lib/chats/list-window";
import { systemTimeZone } from "@/lib/insights/tz";
import { queryKeys } from "@/lib/query-keys";
import type { ChatRow, ChatWindow } from "@/lib/types";
import type { ListFilters, Sort } from "./list-view";

/**
 * What the list asks of the index's windows: the listing (`null` until the stream names it), the sort, the
 * grouping and the filters.
 */
export interface WindowAsk {
  view: string | null;
  sort: Sort;
  grouped: boolean;
  filters: ListFilters;
}

/** The list's counts and groups as the server filtered them, and the rows read so far, by place. */
export interface WindowView {
  head: Omit<ChatWindow, "rows" | "from">;
  rows: Map<number, ChatRow>;
}

/** The places `first`–`last` (inclusive) of the list, as window reads. */
function pagesOf(first: number, last: number): number[] {
  const pages: number[] = [];
  for (let p = Math.floor(first / WINDOW_PAGE); p <= Math.floor(last / WINDOW_PAGE); p++) pages.push(p);
  return pages;
}

/**
 * The chat list over a built index, a window at a time (issue 28): only the
 * pages of rows around the places in view (`range`) are read, each once
 * (`chats.window`). Until the first page of a new sort or filter comes, the
 * last view stays on screen, so a click or a key never blanks the table.
 * `null` until the first page of any ask has come.
 */
export function useChatWindow(ask: WindowAsk | null, range: { first: number; last: number }): WindowView | null {
  const client = useQueryClient();
  // A start-day filter without a zone is in the browser's: the server's could be another day's hours.
  // With no filter the window comes from the index's own indexes, whatever the listing: it is asked for at
  // once, beside the stream (and read into the page's HTML), and not again when the stream names the listing.
  const input = useMemo(() => (ask ? windowInput(ask, systemTimeZone) : null), [ask]);
  const pages = input ? [...new Set([0, ...pagesOf(range.first, range.last)])] : [];
  const results = useQueries({
    queries: pages.map((page) => ({
      queryKey: queryKeys.sessions.window(input, page),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        fetchRead("chats.window", input && windowRead(input, page), signal, sourcePrefixOf(client)),
      staleTime: Number.POSITIVE_INFINITY,
      // Pages scrolled past are dropped soon: 100,000 rows are never all held.
      gcTime: 30_000,
      enabled: input !== null,
    })),
  });
  const loaded = results.map((r) => r.data).filter((d): d is ChatWindow => d !== undefined);
  // The pages of one list all come from one refresh of the index: a page read under an older one is read again.
  const newest = loaded.reduce<string | null>(
    (at, d) => (d.refreshedAt !== null && (at === null || d.refreshedAt > at) ? d.refreshedAt : at),
    null,
  );
  const stale = loaded.some((d) => d.refreshedAt !== newest);
  useEffect(() => {
    if (stale) void client.invalidateQueries({ queryKey: queryKeys.sessions.windows() });
  }, [stale, client]);
  // One view a set of pages read (each render makes a new array of results; the table's items are made once).
  const stamp = results.map((r) => r.dataUpdatedAt).join(",");
  const last = useRef<WindowView | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `stamp` says when `results` hold other data
  const view = useMemo(() => {
    const first = results[0]?.data;
    if (!first) return null;
    const rows = new Map<number, ChatRow>();
    for (const d of loaded) {
      for (let i = 0; i < d.rows.length; i++) rows.set(d.from + i, d.rows[i] as ChatRow);
    }
    const { rows: _rows, from: _from, ...head } = first;
    return { head, rows };
  }, [stamp]);
  if (view) last.current = view;
  return view ?? last.current;
}
