import type { QueryClient } from "@tanstack/react-query";
import { sourcePrefixOf } from "@/components/shell/query-client";
import { ActionError, unwrap } from "@/components/ui/action-error";
import type { ReadData, ReadName } from "@/server/reads";

/** What a read query carries for the server's prefetch: which read, with which input. */
export interface ReadMeta {
  read: ReadName;
  input: unknown;
  [key: string]: unknown;
}

/**
 * One read through its GET route handler, unwrapped: a refusal throws an
 * `ActionError` with its sentence. `prefix`: the source's (`/b/<id>`), whose
 * address says which source is read.
 */
export async function fetchRead<N extends ReadName>(
  name: N,
  input: unknown,
  signal?: AbortSignal,
  prefix = "",
): Promise<ReadData<N>> {
  const response = await fetch(`${prefix}/api/read/${name}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    signal,
    cache: "no-store",
  });
  const body = await response.json().catch(() => null);
  if (!body || typeof body.ok !== "boolean") {
    throw new ActionError({
      code: "unexpected",
      message: `The dashboard could not read its data (${response.status}).`,
    });
  }
  return unwrap<ReadData<N>>(body);
}

/**
 * The `queryFn` and `meta` of a query over a read, to spread into
 * `queryOptions`: the browser fetches the GET route, and a page's server
 * prefetch (`components/shell/prefetch.tsx`) runs the same read from `meta`.
 */
export function readBy<N extends ReadName>(name: N, input: unknown) {
  return {
    queryFn: ({ signal, client }: { signal: AbortSignal; client: QueryClient }) =>
      fetchRead(name, input, signal, sourcePrefixOf(client)),
    meta: { read: name, input } satisfies ReadMeta,
  };
}
