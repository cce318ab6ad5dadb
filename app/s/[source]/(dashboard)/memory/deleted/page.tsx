import type { Metadata } from "next";
import { DeletedList } from "@/components/memory/deleted-list";
import { memoryQueries } from "@/components/memory/queries";
import { Prefetch } from "@/components/shell/prefetch";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Recently deleted memories" };
export const dynamic = "force-dynamic";

export default function DeletedMemoriesPage() {
  return (
    <>
      <PageHeader
        title="Recently deleted"
        description="Deleted memories of every set wait here with their last text. Restoring one writes that text back."
      />
      <Prefetch queries={[memoryQueries.deleted()]}>
        <DeletedList />
      </Prefetch>
    </>
  );
}
