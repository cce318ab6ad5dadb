"use client";

import { experimental_streamedQuery as streamedQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { sourcePrefixOf } from "@/components/shell/query-client";
import { queryKeys } from "@/lib/query-keys";
import type { ChatListBatch, ChatListSource, ChatProblem, ChatRow, ChatSort } from "@/lib/types";
import { type Chunk, readListStream } from "./list-stream";

/** The chat list as it streams in: rows so far, folder problems, progress, where it comes from, and a refusal if any. */
export interface ChatListState {
  rows: ChatRow[];
  problems: ChatProblem[];
  done: number;
  total: number | null;
  /** The search index's verdict (first batch), `null` without an index. */
  index: ChatListSource | null;
  /** The index's groups and their counts (first batch), `null` when the folder is listed instead. */
  groups: NonNullable<ChatListBatch["groups"]> | null;
  /** The order the server sent the rows in (the index's), `null` when the page sorts them (the folder's rows). */
  order: ChatSort | null;
  /** True while `rows` are all in `order`: no update from the folder check has changed or added one since. */
  inOrder: boolean;
  /** Set while the rows are read a window at a time from the index (`ChatListBatch.paged`): the listing's name. */
  paged: { view: string } | null;
  /**
   * The check found the folder changed: its rows are coming in full (into `rows`). The page keeps the index's
   * windows, and their folder problems (`heldProblems`), on screen until the stream ends.
   */
  leaving: boolean;
  heldProblems: ChatProblem[];
  error: string | null;
}

const EMPTY: ChatListState = {
  rows: [],
  problems: [],
  done: 0,
  total: null,
  index: null,
  groups: null,
  order: null,
  inOrder: false,
  paged: null,
  leaving: false,
  heldProblems: [],
  error: null,
};

/** Applies a batch sent after the index's rows were checked: changed and new rows, rows gone, folder problems. */
function applyUpdate(acc: ChatListState, chunk: ChatListBatch, update: NonNullable<ChatListBatch["update"]>) {
  let rows = acc.rows;
  if (chunk.rows.length || update.removed.length) {
    const changed = new Map(chunk.rows.map((r) => [r.id, r]));
    const removed = new Set(update.removed);
    rows = [];
    for (const row of acc.rows) {
      if (removed.has(row.id)) continue;
      const next = changed.get(row.id);
      changed.delete(row.id);
      rows.push(next ?? row);
    }
    rows.push(...changed.values());
  }
  return {
    ...acc,
    rows,
    problems: update.replaceProblems ? chunk.problems : acc.problems,
    done: acc.paged ? acc.done : rows.length,
    total: acc.paged ? acc.total : rows.length,
    index: chunk.index ?? acc.index,
    // A changed row may have moved in the order, and a new one came last: the page sorts them again.
    inOrder: acc.inOrder && !chunk.rows.length,
    error: null,
  };
}

function reduce(acc: ChatListState, chunk: Chunk): ChatListState {
  if ("error" in chunk) return { ...acc, error: chunk.error.message };
  if (chunk.update) return applyUpdate(acc, chunk, chunk.update);
  // The folder changed: its rows come in full, in place of the index's windows once the stream ends.
  if (chunk.paged === null) return { ...acc, leaving: true, heldProblems: acc.problems, rows: [], problems: [] };
  return {
    ...acc,
    rows: chunk.rows.length ? acc.rows.concat(chunk.rows) : acc.rows,
    problems: chunk.problems.length ? acc.problems.concat(chunk.problems) : acc.problems,
    done: chunk.done,
    total: chunk.total,
    index: chunk.index ?? acc.index,
    groups: chunk.groups ?? acc.groups,
    order: chunk.order ?? acc.order,
    inOrder: chunk.order ? true : acc.inOrder,
    paged: chunk.paged ?? acc.paged,
    error: null,
  };
}

/**
 * The streamed chat list through TanStack Query; `refetch()` lists the folder again. `order` is asked of the
 * server (the index's rows come in it; the folder's come as they are listed, `state.order` null). A list in
 * another order is dropped once this one is asked for: one list of 100,000 rows is held, not one per sort.
 */
export function useChatList(order: ChatSort | null) {
  const client = useQueryClient();
  const queryKey = queryKeys.sessions.list(order);
  const query = useQuery({
    queryKey,
    queryFn: streamedQuery<Chunk, ChatListState>({
      streamFn: ({ signal, client }) => {
        // Over a built index the rows are read a window at a time (`useChatWindow`); the stream says so.
        const asked = `?${new URLSearchParams({ paged: "1", ...(order ? { sort: order.key, dir: order.dir } : {}) })}`;
        return readListStream(signal, `${sourcePrefixOf(client)}/api/chats${asked}`);
      },
      reducer: reduce,
      initialValue: EMPTY,
    }),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    structuralSharing: false,
  });
  const key = JSON.stringify(queryKey);
  useEffect(() => {
    client.removeQueries({
      queryKey: queryKeys.sessions.list(),
      predicate: (q) => JSON.stringify(q.queryKey) !== key,
      type: "inactive",
    });
  }, [client, key]);
  return { state: query.data ?? EMPTY, listing: query.fetchStatus === "fetching", refetch: query.refetch };
}
