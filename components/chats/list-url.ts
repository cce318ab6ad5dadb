"use client";

import { parseAsBoolean, parseAsString, parseAsStringLiteral, useQueryStates } from "nuqs";
import { useMemo } from "react";
import { CHAT_SORT_KEYS } from "@/lib/chats/views";
import { firstDirection, type ListFilters, type Sort, type SortKey } from "./list-view";

const LOCKS = ["none", "live", "stale", "unknown"] as const;

/**
 * The chat list's filters, sort and grouping as URL search params (nuqs), so
 * Back from a chat, a reload or a shared link shows the same list. Defaults
 * stay out of the address; typing replaces the history entry instead of
 * pushing one per key.
 */
const PARAMS = {
  find: parseAsString.withDefault(""),
  folder: parseAsString.withDefault(""),
  lock: parseAsStringLiteral(LOCKS),
  format: parseAsString.withDefault(""),
  problems: parseAsBoolean.withDefault(false),
  // The days chats started on (`lib/insights/started.ts`) and the zone they are in: what Insights links to.
  started: parseAsString.withDefault(""),
  tz: parseAsString.withDefault(""),
  sort: parseAsStringLiteral(CHAT_SORT_KEYS).withDefault("lastActivity"),
  dir: parseAsStringLiteral(["asc", "desc"] as const).withDefault("desc"),
  grouped: parseAsBoolean.withDefault(true),
};

/** The list's view state, read from and written to the URL. */
export function useListUrlState() {
  const [q, setQ] = useQueryStates(PARAMS, { history: "replace" });
  const filters: ListFilters = useMemo(
    () => ({
      find: q.find,
      group: q.folder,
      lock: q.lock ?? "",
      format: q.format,
      problemsOnly: q.problems,
      started: q.started,
      tz: q.tz,
    }),
    [q.find, q.folder, q.lock, q.format, q.problems, q.started, q.tz],
  );
  const sort: Sort = useMemo(() => ({ key: q.sort, dir: q.dir }), [q.sort, q.dir]);
  return {
    filters,
    setFilters: (f: ListFilters) =>
      setQ({
        find: f.find,
        folder: f.group,
        lock: LOCKS.find((l) => l === f.lock) ?? null,
        format: f.format,
        problems: f.problemsOnly,
        started: f.started,
        // The zone goes with the days: without them it says nothing.
        tz: f.started ? f.tz : "",
      }),
    sort,
    onSort: (key: SortKey) =>
      setQ(q.sort === key ? { dir: q.dir === "asc" ? "desc" : "asc" } : { sort: key, dir: firstDirection(key) }),
    grouped: q.grouped,
    setGrouped: (grouped: boolean) => setQ({ grouped }),
  };
}
