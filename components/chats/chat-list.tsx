"use client";

import { useMemo, useState } from "react";
import { DuplicateLinks } from "@/components/repairs/chat-fix";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { MomentText } from "@/components/ui/moment-text";
import { Progress } from "@/components/ui/progress";
import { ChatListFilters } from "./chat-list-filters";
import { ChatTable } from "./chat-table";
import { formatCount } from "./format";
import { useListUrlState } from "./list-url";
import { groupOptions, groupRows, NO_FILTERS, type Sort, sameFilters, shownRows } from "./list-view";
import { ProblemList } from "./problem-list";
import { StartedNote } from "./started-note";
import { useChatList } from "./use-chat-list";

/** The chat list: streamed in with a progress bar, sortable, filterable, grouped by working folder. */
export function ChatList() {
  const { filters, setFilters, sort, onSort, grouped, setGrouped } = useListUrlState();
  // The order asked of the server. The index's rows come in it: a new sort asks again, and the first rows of
  // the new order come from the index's own order of that column, not from 100,000 rows sorted here. The
  // folder's rows (no index: `state.order` null) are listed once and sorted here.
  const [asked, setAsked] = useState<Sort>(sort);
  const { state, listing, refetch } = useChatList(asked);
  if (state.order && (asked.key !== sort.key || asked.dir !== sort.dir)) setAsked(sort);
  const served = state.inOrder && state.order?.key === sort.key && state.order.dir === sort.dir;

  const groups = useMemo(() => groupOptions(state.rows), [state.rows]);
  const formats = useMemo(
    () => [...new Set(state.rows.map((r) => r.format).filter((f): f is number => f !== null))].sort((a, b) => a - b),
    [state.rows],
  );
  // Rows the server sent in an order are not sorted here (`shownRows`).
  const shown = useMemo(
    () => shownRows(state.rows, filters, sort, { order: state.order, inOrder: state.inOrder }),
    [state.rows, filters, sort, state.order, state.inOrder],
  );
  // While the index's rows stream in the table's order, unfiltered, each group's place is laid out from the
  // first batch, so the rows fill it and nothing under the pointer moves.
  const layout = listing && served && sameFilters(filters, NO_FILTERS) ? state.groups : null;
  const items = useMemo(() => groupRows(shown, grouped, layout), [shown, grouped, layout]);
  const withProblems = useMemo(() => state.rows.filter((r) => r.problems.length).length, [state.rows]);

  return (
    <div className="space-y-4">
      {state.index && (
        <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
          {state.index.checking ? (
            <MomentText text={state.index.sentence} />
          ) : state.index.fresh ? (
            <MomentText text={`Chats are listed from the search index. ${state.index.sentence}`} />
          ) : (
            <MomentText text={`${state.index.sentence} Chats are listed from the log folder directly.`} />
          )}
        </p>
      )}
      {state.error && <Alert tone="error">{state.error}</Alert>}
      {state.problems.length > 0 && (
        <section
          aria-labelledby="folder-problems"
          className="rounded-md border-l-4 border-red-600 bg-red-50 p-3 dark:bg-red-950/60"
        >
          <h2 id="folder-problems" className="mb-1 font-semibold text-red-900 dark:text-red-100">
            Problems in the log folder
          </h2>
          <ProblemList problems={state.problems} label="Problems in the log folder" />
          <DuplicateLinks problems={state.problems} />
        </section>
      )}
      <StartedNote filters={filters} onChange={setFilters} />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <ChatListFilters filters={filters} onChange={setFilters} groups={groups} formats={formats} />
        <div className="flex items-center gap-3">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={grouped}
              onChange={(e) => setGrouped(e.target.checked)}
              className="size-4"
            />
            Group by working folder
          </label>
          <Button onClick={() => refetch()} disabled={listing}>
            Refresh
          </Button>
        </div>
      </div>
      {/* The bar sits in the line of counts, which stays when the listing ends: nothing below it moves then. */}
      <div className="flex min-h-5 flex-wrap items-center gap-3">
        <p aria-live="polite" className="text-sm text-zinc-700 dark:text-zinc-300">
          {listing
            ? `Listed ${formatCount(state.done)} of ${state.total === null ? "…" : formatCount(state.total)} chats so far.`
            : `Showing ${formatCount(shown.length)} of ${formatCount(state.rows.length)} chats; ${formatCount(withProblems)} with problems.`}
        </p>
        {listing && <Progress inline label="Listing chats" done={state.done} total={state.total || null} />}
      </div>
      {!listing && shown.length === 0 && state.rows.length > 0 ? (
        <div role="status" className="space-y-2 rounded-md border border-zinc-300 p-4 dark:border-zinc-700">
          <p className="font-semibold">No chat matches these filters.</p>
          <p className="text-sm">
            {formatCount(state.rows.length)} {state.rows.length === 1 ? "chat is" : "chats are"} in the log folder.
          </p>
          <Button onClick={() => setFilters(NO_FILTERS)}>Clear filters</Button>
        </div>
      ) : (
        <ChatTable items={items} sort={sort} onSort={onSort} grouped={grouped} />
      )}
    </div>
  );
}
