import type { Metadata } from "next";
import { MemoryOverview } from "@/components/memory/memory-overview";
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
      <MemoryOverview />
    </>
  );
}
