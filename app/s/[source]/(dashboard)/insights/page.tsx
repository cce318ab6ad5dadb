import type { Metadata } from "next";
import { Suspense } from "react";
import { InsightsFilters } from "@/components/insights/insights-filters";
import { MemorySection } from "@/components/insights/memory-section";
import { ActivitySection, StorageSection } from "@/components/insights/storage-section";
import { UsageSection } from "@/components/insights/usage-section";
import { IndexStatusPanel } from "@/components/search/index-status";
import { PageHeader } from "@/components/ui/page-header";
import { pageSource } from "@/server/source/edge";
import { loadInsights, readInsightsParams } from "@/server/views/insights";

export const metadata: Metadata = { title: "Insights" };
export const dynamic = "force-dynamic";

/** Where the tokens, the chats and the disk space go: every report from the search index, rendered on the server. */
export default async function InsightsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const view = await loadInsights(await pageSource(), readInsightsParams(await searchParams));
  return (
    <div className="space-y-8">
      <PageHeader
        title="Insights"
        description="Where the tokens, the chats and the disk space go, over the whole log folder, from the search index."
      />
      <IndexStatusPanel />
      {!view.ok ? (
        <p role="alert">{view.message}</p>
      ) : (
        <>
          <Suspense>
            <InsightsFilters
              values={view.params}
              usedZone={view.overview.usage.scope.timezone}
              cwds={view.overview.cwds}
              models={view.overview.models}
            />
          </Suspense>
          <UsageSection overview={view.overview} />
          <ActivitySection overview={view.overview} />
          <StorageSection overview={view.overview} />
          <MemorySection memory={view.overview.memory} />
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Summed from the index in {view.ms} ms.</p>
        </>
      )}
    </div>
  );
}
