import type { Metadata } from "next";
import { ProblemsList } from "@/components/memory/problems-list";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Memory problems" };

export default function MemoryProblemsPage() {
  return (
    <>
      <PageHeader
        title="Problems"
        description="Memory files that cannot be read, and settings that cannot be used, with their exact messages. Paths are relative to the Oda home."
      />
      <ProblemsList />
    </>
  );
}
