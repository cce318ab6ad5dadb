"use client";

import { experimental_streamedQuery as streamedQuery, useQuery } from "@tanstack/react-query";
import { sourcePrefixOf } from "@/components/shell/query-client";
import type { ErrorBody } from "@/lib/errors";
import { queryKeys } from "@/lib/query-keys";
import type { ChatListBatch, ChatListSource, ChatProblem, ChatRow } from "@/lib/types";

/** The chat list as it streams in: rows so far, folder problems, progress, where it comes from, and a refusal if any. */
export interface ChatListState {
  rows: ChatRow[];
  problems: ChatProblem[];
  done: number;
  total: number | null;
  /** The search index's verdict (first batch), `null` without an index. */
  index: ChatListSource | null;
  error: string | null;
}

const EMPTY: ChatListState = { rows: [], problems: [], done: 0, total: null, index: null, error: null };

type Chunk = ChatListBatch | { error: ErrorBody };

/** Reads `/api/chats` (NDJSON) line by line as the server lists the folder. */
async function* readListStream(signal: AbortSignal, prefix: string): AsyncGenerator<Chunk> {
  const response = await fetch(`${prefix}/api/chats`, { signal, cache: "no-store" });
  if (!response.ok || !response.body) {
    const message = (await response.text()).trim() || `The chat list could not be read (${response.status}).`;
    yield { error: { code: "unexpected", message } };
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let nl = buffered.indexOf("\n");
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.trim()) yield JSON.parse(line) as Chunk;
      nl = buffered.indexOf("\n");
    }
  }
}

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
    rows,
    problems: update.replaceProblems ? chunk.problems : acc.problems,
    done: rows.length,
    total: rows.length,
    index: chunk.index ?? acc.index,
    error: null,
  };
}

function reduce(acc: ChatListState, chunk: Chunk): ChatListState {
  if ("error" in chunk) return { ...acc, error: chunk.error.message };
  if (chunk.update) return applyUpdate(acc, chunk, chunk.update);
  return {
    rows: chunk.rows.length ? acc.rows.concat(chunk.rows) : acc.rows,
    problems: chunk.problems.length ? acc.problems.concat(chunk.problems) : acc.problems,
    done: chunk.done,
    total: chunk.total,
    index: chunk.index ?? acc.index,
    error: null,
  };
}

/** The streamed chat list through TanStack Query; `refetch()` lists the folder again. */
export function useChatList() {
  const query = useQuery({
    queryKey: queryKeys.sessions.list(),
    queryFn: streamedQuery<Chunk, ChatListState>({
      streamFn: ({ signal, client }) => readListStream(signal, sourcePrefixOf(client)),
      reducer: reduce,
      initialValue: EMPTY,
    }),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    structuralSharing: false,
  });
  return { state: query.data ?? EMPTY, listing: query.fetchStatus === "fetching", refetch: query.refetch };
}
