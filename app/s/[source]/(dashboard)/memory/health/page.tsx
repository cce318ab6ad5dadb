import type { Metadata } from "next";
import { HealthList } from "@/components/memory/health-list";
import { memoryQueries } from "@/components/memory/queries";
import { Prefetch } from "@/components/shell/prefetch";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Memory health" };
export const dynamic = "force-dynamic";

export default function MemoryHealthPage() {
  return (
    <>
      <PageHeader
        title="Memory health"
        description="Duplicates, near duplicates, conflicting titles, memories off for more than 30 days, memories and chats close to a limit, and problem files, across every set. Each change is shown before it is made, and one Undo puts it all back."
      />
      <Prefetch queries={[memoryQueries.health()]}>
        <HealthList />
      </Prefetch>
    </>
  );
}
