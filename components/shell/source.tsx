"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { makeQueryClient } from "@/components/shell/query-client";
import { UndoActionsProvider } from "@/components/shell/undo-actions";
import { inSource, outOfSource } from "@/lib/routes";

/**
 * What the browser knows of the source a page was rendered for: its id (every
 * server action carries it), the prefix of its addresses, and why it cannot be
 * changed (null for live). Made from the server's context by the layout.
 */
export interface SourceView {
  id: string;
  prefix: string;
  /** The sentence shown beside every disabled write control; null when the source can write. */
  readOnly: string | null;
}

const LIVE: SourceView = { id: "live", prefix: "", readOnly: null };
const SourceContext = createContext<SourceView>(LIVE);

/**
 * Gives the page its source, and a QueryClient of its own: a tab moving
 * between sources never shows one source's cached data under another's address.
 */
export function SourceProvider({ source, children }: { source: SourceView; children: ReactNode }) {
  const [client] = useState(() => makeQueryClient(source.prefix));
  return (
    <SourceContext.Provider value={source}>
      <QueryClientProvider client={client}>
        <UndoActionsProvider>{children}</UndoActionsProvider>
      </QueryClientProvider>
    </SourceContext.Provider>
  );
}

/** The source the page was rendered for. */
export function useSource(): SourceView {
  return useContext(SourceContext);
}

/** `href` inside the page's source (`/memory` becomes `/b/<id>/memory` in a bundle). */
export function useSourceHref(): (href: string) => string {
  const { prefix } = useSource();
  return (href) => inSource(prefix, href);
}

/** The path as the source's pages know it (without `/b/<id>`), for marking the current link. */
export function useSourcePathname(): string {
  const { prefix } = useSource();
  return outOfSource(prefix, usePathname());
}

/** Next's router, with `push` and `replace` kept inside the page's source. */
export function useSourceRouter(): ReturnType<typeof useRouter> {
  const router = useRouter();
  const { prefix } = useSource();
  return useMemo(
    () => ({
      ...router,
      push: (href, options) => router.push(inSource(prefix, href), options),
      replace: (href, options) => router.replace(inSource(prefix, href), options),
      prefetch: (href, options) => router.prefetch(inSource(prefix, href), options),
    }),
    [router, prefix],
  );
}

/** Adds the page's source to a server action's input (`fooAction(withSource({ … }))`). */
export function useSourceInput(): <I extends object>(input: I) => I & { source: string } {
  const { id } = useSource();
  return useCallback((input) => ({ ...input, source: id }), [id]);
}
