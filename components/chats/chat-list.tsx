"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import { DuplicateLinks } from "@/components/repairs/chat-fix";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { MomentText } from "@/components/ui/moment-text";
import { Progress } from "@/components/ui/progress";
import { ChatListFilters } from "./chat-list-filters";
import { ChatTable } from "./chat-table";
import { formatCount } from "./format";
import { useListUrlState } from "./list-url";
import {
  filterRows,
  formatOptions,
  groupOptions,
  groupRows,
  heldItems,
  type ListItems,
  NO_FILTERS,
  placesIn,
  sortRows,
  windowItems,
} from "./list-view";
import { ProblemList } from "./problem-list";
import { StartedNote } from "./started-note";
import { type ChatListState, useChatList } from "./use-chat-list";
import { useChatWindow } from "./use-chat-window";

type UrlState = ReturnType<typeof useListUrlState>;

/**
 * The chat list: sortable, filterable, grouped by working folder. Over a built search index it is read a
 * window at a time while the index is checked against the log folder (`WindowedChats`); a folder listed
 * without one, or changed since the index was built, streams in whole with a progress bar (`HeldChats`).
 */
export function ChatList() {
  const url = useListUrlState();
  const { state, listing, refetch } = useChatList();
  // The index's windows stay on screen while a changed folder's rows stream in, until they are all there. Before
  // the stream's first answer the first window is asked for beside it, or came with the HTML (`unknown`): over
  // a built index it is shown at once; without one it says so, and the stream's rows take its place.
  const unknown = state.total === null && !state.error;
  const windowed = unknown || (state.paged !== null && (!state.leaving || listing));
  const problems = windowed && state.leaving ? state.heldProblems : state.problems;

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
      {problems.length > 0 && (
        <section
          aria-labelledby="folder-problems"
          className="rounded-md border-l-4 border-red-600 bg-red-50 p-3 dark:bg-red-950/60"
        >
          <h2 id="folder-problems" className="mb-1 font-semibold text-red-900 dark:text-red-100">
            Problems in the log folder
          </h2>
          <ProblemList problems={problems} label="Problems in the log folder" />
          <DuplicateLinks problems={problems} />
        </section>
      )}
      <StartedNote filters={url.filters} onChange={url.setFilters} />
      {windowed ? (
        <WindowedChats view={state.paged?.view ?? null} state={state} listing={listing} url={url} refetch={refetch} />
      ) : (
        <HeldChats state={state} listing={listing} url={url} refetch={refetch} />
      )}
    </div>
  );
}

interface ListProps {
  state: ChatListState;
  listing: boolean;
  url: UrlState;
  refetch: () => unknown;
}

/** The filters, the grouping switch and Refresh, over the options the list has. */
function Controls({
  url,
  groups,
  formats,
  listing,
  refetch,
}: Pick<ListProps, "url" | "listing" | "refetch"> & {
  groups: { group: string; label: string }[];
  formats: number[];
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <ChatListFilters filters={url.filters} onChange={url.setFilters} groups={groups} formats={formats} />
      <div className="flex items-center gap-3">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={url.grouped}
            onChange={(e) => url.setGrouped(e.target.checked)}
            className="size-4"
          />
          Group by working folder
        </label>
        <Button onClick={() => refetch()} disabled={listing}>
          Refresh
        </Button>
      </div>
    </div>
  );
}

/** What shows when filters keep no chat of a list that has some. */
function NoMatch({ total, url }: { total: number; url: UrlState }) {
  return (
    <div role="status" className="space-y-2 rounded-md border border-zinc-300 p-4 dark:border-zinc-700">
      <p className="font-semibold">No chat matches these filters.</p>
      <p className="text-sm">
        {formatCount(total)} {total === 1 ? "chat is" : "chats are"} in the log folder.
      </p>
      <Button onClick={() => url.setFilters(NO_FILTERS)}>Clear filters</Button>
    </div>
  );
}

/** The line of counts; the bar sits in it, and it stays when the listing ends: nothing below it moves then. */
function CountLine({ text, progress }: { text: string; progress: { done: number; total: number | null } | null }) {
  return (
    <div className="flex min-h-5 flex-wrap items-center gap-3">
      <p aria-live="polite" className="text-sm text-zinc-700 dark:text-zinc-300">
        {text}
      </p>
      {progress && <Progress inline label="Listing chats" done={progress.done} total={progress.total || null} />}
    </div>
  );
}

/**
 * The list over a built index, read a window at a time: the server filters, sorts and groups every chat
 * (`server/views/chat-window.ts`), and the table reads the rows of the places it draws. The counts and every
 * group's place are there with the first window, so the table is whole from its first paint.
 */
function WindowedChats({ view, state, listing, url, refetch }: ListProps & { view: string | null }) {
  const [range, setRange] = useState({ first: 0, last: 0 });
  const { sort, grouped, filters } = url;
  const ask = useMemo(() => ({ view, sort, grouped, filters }), [view, sort, grouped, filters]);
  const read = useChatWindow(ask, range);
  const items = useMemo<ListItems>(
    () => (read ? windowItems(read.head.shown, read.head.groups, (place) => read.rows.get(place)) : heldItems([])),
    [read],
  );
  const onRange = useCallback(
    (first: number, last: number) => {
      const places = placesIn(items, first, last);
      if (places) setRange((r) => (r.first === places.first && r.last === places.last ? r : places));
    },
    [items],
  );
  // The index went away after the stream said it serves the list (set aside, or its state folder removed): the
  // folder is listed instead. Before the stream has answered, it will say so itself.
  const gone = read?.head.built === false && view !== null;
  useEffect(() => {
    if (gone) refetch();
  }, [gone, refetch]);
  const head = read?.head.built ? read.head : undefined;
  return (
    <>
      <Controls
        url={url}
        groups={head?.groupOptions ?? []}
        formats={head?.formats ?? []}
        listing={listing}
        refetch={refetch}
      />
      <CountLine
        text={
          head
            ? `Showing ${formatCount(head.shown)} of ${formatCount(head.total)} chats; ${formatCount(head.withProblems)} with problems.`
            : `Listed 0 of ${state.total === null ? "…" : formatCount(state.total)} chats so far.`
        }
        progress={state.leaving && listing ? { done: state.done, total: state.total } : null}
      />
      {head && head.shown === 0 && head.total > 0 ? (
        <NoMatch total={head.total} url={url} />
      ) : (
        <ChatTable items={items} sort={sort} onSort={url.onSort} grouped={grouped} onRange={onRange} />
      )}
    </>
  );
}

/** The list held whole in the page: a folder listed without an index, or changed since the index was built. */
function HeldChats({ state, listing, url, refetch }: ListProps) {
  const { filters, sort, grouped } = url;
  const groups = useMemo(() => groupOptions(state.rows), [state.rows]);
  const formats = useMemo(() => formatOptions(state.rows), [state.rows]);
  const shown = useMemo(() => sortRows(filterRows(state.rows, filters), sort), [state.rows, filters, sort]);
  const items = useMemo(() => heldItems(groupRows(shown, grouped)), [shown, grouped]);
  const withProblems = useMemo(() => state.rows.filter((r) => r.problems.length).length, [state.rows]);
  return (
    <>
      <Controls url={url} groups={groups} formats={formats} listing={listing} refetch={refetch} />
      <CountLine
        text={
          listing
            ? `Listed ${formatCount(state.done)} of ${state.total === null ? "…" : formatCount(state.total)} chats so far.`
            : `Showing ${formatCount(shown.length)} of ${formatCount(state.rows.length)} chats; ${formatCount(withProblems)} with problems.`
        }
        progress={listing ? { done: state.done, total: state.total } : null}
      />
      {!listing && shown.length === 0 && state.rows.length > 0 ? (
        <NoMatch total={state.rows.length} url={url} />
      ) : (
        <ChatTable items={items} sort={sort} onSort={url.onSort} grouped={grouped} />
      )}
    </>
  );
}
