import { QueryClient } from "@tanstack/react-query";

/** The one QueryClient factory: data counts as fresh for two seconds, then refetches on focus and interval. */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 2_000, refetchOnWindowFocus: true, retry: 1 },
      mutations: { retry: false },
    },
  });
}
