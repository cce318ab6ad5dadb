import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { SourceProvider } from "@/components/shell/source";
import { isOdaError } from "@/lib/errors";
import { guardPage } from "@/server/access/guard";
import type { SourceContext } from "@/server/source/context";
import { pageSource } from "@/server/source/edge";

/**
 * Every dashboard page passes the access guard here, behind the proxy's own
 * check, and gets its source: the one the address names (`/b/<id>/…` for a
 * bundle), resolved once for the request. A bundle that is not open is a 404.
 */
export default async function DashboardLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ source: string }>;
}) {
  await guardPage();
  let ctx: SourceContext;
  try {
    ctx = await pageSource();
  } catch (error) {
    if (isOdaError(error) && error.code === "not_found") notFound();
    throw error;
  }
  // The segment and the proxy's header name the same source (a request that skipped the proxy may not).
  if (decodeURIComponent((await params).source) !== ctx.id) notFound();
  return (
    // A tab moving to another source starts afresh: its own QueryClient, its own source for every action.
    <SourceProvider key={ctx.id} source={{ id: ctx.id, prefix: ctx.prefix, readOnly: ctx.readOnly }}>
      <AppShell ctx={ctx}>{children}</AppShell>
    </SourceProvider>
  );
}
