"use client";

import { experimental_streamedQuery as streamedQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { sourcePrefixOf } from "@/components/shell/query-client";
import type { ErrorBody } from "@/lib/errors";
import { queryKeys } from "@/lib/query-keys";
import type { ChatListBatch, ChatListSource, ChatProblem, ChatRow, ChatSort } from "@/lib/types";

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
  error: null,
};

type Chunk = ChatListBatch | { error: ErrorBody };

/** How long batches may gather before the page shows them: one render per batch was 500 renders at 100,000 chats. */
const SHOW_EVERY_MS = 120;

/** Plain batches that arrived together, as one (an update, an error or the end of the index's rows stays apart). */
function merge(chunks: Chunk[]): Chunk[] {
  const out: Chunk[] = [];
  for (const chunk of chunks) {
    const last = out.at(-1);
    if (last && !("error" in last) && !last.update && !("error" in chunk) && !chunk.update && !chunk.index) {
      out[out.length - 1] = {
        ...last,
        rows: last.rows.concat(chunk.rows),
        problems: last.problems.concat(chunk.problems),
        done: chunk.done,
        total: chunk.total,
      };
    } else out.push(chunk);
  }
  return out;
}

/**
 * Reads `/api/chats` (NDJSON) as the server lists the folder. Lines that arrive within `SHOW_EVERY_MS` of each
 * other go to the page as one batch; a pause in the stream shows what came so far.
 */
async function* readListStream(signal: AbortSignal, url: string): AsyncGenerator<Chunk> {
  let pending: Chunk[] = [];
  let first = true;
  for await (const chunk of readListLines(signal, url, (wait) => (pending.length ? wait : null))) {
    if (first && chunk !== FLUSH) {
      // The first rows go out at once: they are the first paint.
      first = false;
      yield chunk;
    } else if (chunk === FLUSH) {
      yield* merge(pending);
      pending = [];
    } else pending.push(chunk);
  }
  yield* merge(pending);
}

const FLUSH = Symbol("flush");

/** The stream's lines, and `FLUSH` every `SHOW_EVERY_MS` (and when the stream pauses with lines gathered). */
async function* readListLines(
  signal: AbortSignal,
  url: string,
  gathering: (wait: number) => number | null,
): AsyncGenerator<Chunk | typeof FLUSH> {
  const response = await fetch(url, { signal, cache: "no-store" });
  if (!response.ok || !response.body) {
    const message = (await response.text()).trim() || `The chat list could not be read (${response.status}).`;
    yield { error: { code: "unexpected", message } };
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let shown = performance.now();
  for (;;) {
    const read = reader.read();
    let next = await Promise.race([read, pause(gathering(SHOW_EVERY_MS))]);
    if (next === PAUSED) {
      yield FLUSH;
      shown = performance.now();
      next = await read;
    }
    const { value, done } = next;
    if (done) break;
    if (performance.now() - shown >= SHOW_EVERY_MS) {
      yield FLUSH;
      shown = performance.now();
    }
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

const PAUSED = Symbol("paused");

/** Resolves with `PAUSED` after `ms` (never when `ms` is null: nothing is waiting to be shown). */
function pause(ms: number | null): Promise<typeof PAUSED> {
  return ms === null ? new Promise(() => {}) : new Promise((resolve) => setTimeout(() => resolve(PAUSED), ms));
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
    groups: acc.groups,
    order: acc.order,
    // A changed row may have moved in the order, and a new one came last: the page sorts them again.
    inOrder: acc.inOrder && !chunk.rows.length,
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
    groups: chunk.groups ?? acc.groups,
    order: chunk.order ?? acc.order,
    inOrder: chunk.order ? true : acc.inOrder,
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
        const asked = order ? `?${new URLSearchParams({ sort: order.key, dir: order.dir })}` : "";
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
