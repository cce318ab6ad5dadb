import { QueryClient } from "@tanstack/react-query";

const prefixes = new WeakMap<QueryClient, string>();

/** The address prefix of the source a client reads (`/b/<id>`, or "" for live and the server's prefetch). */
export function sourcePrefixOf(client: QueryClient): string {
  return prefixes.get(client) ?? "";
}

/**
 * The one QueryClient factory: data counts as fresh for two seconds, then
 * refetches on focus and interval. One per source a tab shows (`prefix`: its
 * addresses' prefix, which its reads go through).
 */
export function makeQueryClient(prefix = ""): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: { staleTime: 2_000, refetchOnWindowFocus: true, retry: 1 },
      mutations: { retry: false },
    },
  });
  prefixes.set(client, prefix);
  return client;
}
