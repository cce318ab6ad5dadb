import type { Metadata } from "next";
import { ProblemsList } from "@/components/memory/problems-list";
import { memoryQueries } from "@/components/memory/queries";
import { Prefetch } from "@/components/shell/prefetch";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Memory problems" };
export const dynamic = "force-dynamic";

export default function MemoryProblemsPage() {
  return (
    <>
      <PageHeader
        title="Problems"
        description="Memory files that cannot be read, and settings that cannot be used, with their exact messages. Paths are relative to the Oda home."
      />
      <Prefetch queries={[memoryQueries.problems()]}>
        <ProblemsList />
      </Prefetch>
    </>
  );
}
