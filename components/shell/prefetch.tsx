import "server-only";
import { dehydrate, HydrationBoundary, type QueryKey } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { makeQueryClient } from "@/components/shell/query-client";
import { unwrap } from "@/components/ui/action-error";
import { guardPage } from "@/server/access/guard";
import { runRead } from "@/server/reads";
import { pageSource } from "@/server/source/edge";
import type { ReadMeta } from "./read-query";

/**
 * Runs a page's reads on the server and hands their data to the browser's
 * QueryClient, so the page shows its data at once instead of "Reading…". A
 * read that fails is left out: the browser then reads it and shows the error.
 */
export async function Prefetch({
  queries,
  children,
}: {
  queries: { queryKey: QueryKey; meta?: Record<string, unknown> }[];
  children: ReactNode;
}) {
  // Layouts and pages render side by side: check the access here too, before any read runs.
  await guardPage();
  const client = makeQueryClient();
  await Promise.all(
    queries.map((query) => {
      const { read, input } = query.meta as ReadMeta;
      return client.prefetchQuery({
        queryKey: query.queryKey,
        queryFn: () => unwrap(runRead(read, input, pageSource)),
      });
    }),
  );
  return <HydrationBoundary state={dehydrate(client)}>{children}</HydrationBoundary>;
}
