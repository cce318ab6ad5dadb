import type { Metadata } from "next";
import { MemoryOverview } from "@/components/memory/memory-overview";
import { memoryQueries } from "@/components/memory/queries";
import { Prefetch } from "@/components/shell/prefetch";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Memory" };
export const dynamic = "force-dynamic";

export default function MemoryOverviewPage() {
  return (
    <>
      <PageHeader
        title="Memory"
        description="Every memory set on this computer, what each chat receives, and a search across them all."
      />
      <Prefetch queries={[memoryQueries.overview()]}>
        <MemoryOverview />
      </Prefetch>
    </>
  );
}
