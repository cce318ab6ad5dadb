"use client";

import { useQueryStates } from "nuqs";
import { useMemo } from "react";
import { filtersOf, LOCKS, PARAMS } from "./list-params";
import { firstDirection, type ListFilters, type Sort, type SortKey } from "./list-view";

/** The list's view state, read from and written to the URL. */
export function useListUrlState() {
  const [q, setQ] = useQueryStates(PARAMS, { history: "replace" });
  const { find, folder, lock, format, problems, started, tz } = q;
  const filters: ListFilters = useMemo(
    () => filtersOf({ find, folder, lock, format, problems, started, tz }),
    [find, folder, lock, format, problems, started, tz],
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
