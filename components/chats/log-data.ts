import { queryOptions } from "@tanstack/react-query";
import { sourcePrefixOf } from "@/components/shell/query-client";
import { ActionError } from "@/components/ui/action-error";
import { queryKeys } from "@/lib/query-keys";
import { chatDataHref } from "@/lib/routes";
import type { LinesView, StatusView } from "@/lib/types";
import { PAGE } from "./paging";

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(url, { signal, cache: "no-store" });
  const body = (await response.json().catch(() => null)) as
    | (T & { error?: undefined })
    | { error: { code: string; message: string } }
    | null;
  if (!response.ok || !body || body.error) {
    throw new ActionError(
      body?.error ?? { code: "unexpected", message: `The chat could not be read (${response.status}).` },
    );
  }
  return body as T;
}

/** One page of lines (`from` is a page start). Full pages never change: the log only grows. */
export function linesQuery(id: string, generation: string | null, from: number, copy?: number) {
  return queryOptions({
    queryKey: queryKeys.sessions.lines(id, generation, from, copy),
    queryFn: ({ signal, client }) =>
      getJson<LinesView>(
        sourcePrefixOf(client) + chatDataHref(id, "lines", { from, count: PAGE, generation, copy }),
        signal,
      ),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** The log's line count, sizes, tail and the chat's lock; polled every second while following. */
export function statusQuery(id: string, generation: string | null, follow: boolean, copy?: number) {
  return queryOptions({
    queryKey: queryKeys.sessions.status(id, generation, copy),
    queryFn: ({ signal, client }) =>
      getJson<StatusView>(sourcePrefixOf(client) + chatDataHref(id, "status", { generation, copy }), signal),
    refetchInterval: follow ? 1000 : false,
    staleTime: follow ? 0 : 10_000,
  });
}
