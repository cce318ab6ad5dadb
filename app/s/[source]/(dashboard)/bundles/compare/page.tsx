import type { Metadata } from "next";
import { BundleDiffView } from "@/components/bundle/bundle-diff-view";
import { CompareForm } from "@/components/bundle/compare-form";
import { Alert } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/page-header";
import type { BundleDiff } from "@/lib/bundle/diff";
import { isOdaError } from "@/lib/errors";
import { sources } from "@/server/source/registry";
import { compareOpened } from "@/server/views/bundle-compare";

export const metadata: Metadata = { title: "Compare bundles" };
export const dynamic = "force-dynamic";

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

/** Two opened bundles of one installation compared (`?a=<before>&b=<after>`), as `oda-admin bundle diff` does. */
export default async function CompareBundlesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = await searchParams;
  const a = one(query.a);
  const b = one(query.b);
  const opened = sources()
    .bundles()
    .map((ctx) => ({ id: ctx.id, name: ctx.bundle?.name ?? ctx.id, createdAt: ctx.bundle?.manifest.createdAt ?? "" }));
  let diff: BundleDiff | null = null;
  let error: string | null = null;
  if (a && b) {
    try {
      diff = await compareOpened(a, b);
    } catch (thrown) {
      if (!isOdaError(thrown)) throw thrown;
      error = thrown.message;
    }
  }
  const name = (id: string) => opened.find((o) => o.id === id)?.name ?? id;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Compare bundles"
        description="Two bundles of one installation, before and after: chats, problems, memories and settings that changed."
      />
      {opened.length < 2 ? (
        <p>Open two bundles on the Bundles page to compare them.</p>
      ) : (
        <CompareForm bundles={opened} before={a} after={b} />
      )}
      {error && <Alert tone="error">{error}</Alert>}
      {diff && a && b && <BundleDiffView diff={diff} before={name(a)} after={name(b)} />}
    </div>
  );
}
