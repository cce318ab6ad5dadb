"use client";

import { experimental_streamedQuery as streamedQuery, useQuery } from "@tanstack/react-query";
import { sourcePrefixOf } from "@/components/shell/query-client";
import { queryKeys } from "@/lib/query-keys";
import type { ChatListSource, ChatProblem, ChatRow } from "@/lib/types";
import { type Chunk, readListStream } from "./list-stream";

/**
 * The chat list's stream as the page holds it: over a built index the listing's name and the index's verdict
 * (the rows are read a window at a time, `use-chat-window.ts`); over a folder listed without one, or changed
 * since the index was built, its rows so far; the folder problems, progress, and a refusal if any.
 */
export interface ChatListState {
  rows: ChatRow[];
  problems: ChatProblem[];
  done: number;
  total: number | null;
  /** The search index's verdict (first batch, and the last), `null` without an index. */
  index: ChatListSource | null;
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
  paged: null,
  leaving: false,
  heldProblems: [],
  error: null,
};

function reduce(acc: ChatListState, chunk: Chunk): ChatListState {
  if ("error" in chunk) return { ...acc, error: chunk.error.message };
  // The folder changed: its rows come in full, in place of the index's windows once the stream ends.
  if (chunk.paged === null) return { ...acc, leaving: true, heldProblems: acc.problems, rows: [], problems: [] };
  return {
    ...acc,
    rows: chunk.rows.length ? acc.rows.concat(chunk.rows) : acc.rows,
    problems: chunk.problems.length ? acc.problems.concat(chunk.problems) : acc.problems,
    done: chunk.done,
    total: chunk.total,
    index: chunk.index ?? acc.index,
    paged: chunk.paged ?? acc.paged,
    error: null,
  };
}

/**
 * The streamed chat list through TanStack Query (`?paged=1`: over a built index no rows, which the table reads
 * a window at a time); `refetch()` lists again, the folder check included.
 */
export function useChatList() {
  const query = useQuery({
    queryKey: queryKeys.sessions.list(),
    queryFn: streamedQuery<Chunk, ChatListState>({
      streamFn: ({ signal, client }) => readListStream(signal, `${sourcePrefixOf(client)}/api/chats?paged=1`),
      reducer: reduce,
      initialValue: EMPTY,
    }),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    structuralSharing: false,
  });
  return { state: query.data ?? EMPTY, listing: query.fetchStatus === "fetching", refetch: query.refetch };
}
