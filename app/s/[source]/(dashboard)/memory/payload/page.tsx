import type { Metadata } from "next";
import { PayloadView } from "@/components/memory/payload-view";
import { memoryQueries } from "@/components/memory/queries";
import { Prefetch } from "@/components/shell/prefetch";
import { PageHeader } from "@/components/ui/page-header";
import { isWorkspaceKey } from "@/lib/memory/names";

export const metadata: Metadata = { title: "What a chat receives" };

export default async function PayloadPage({
  searchParams,
}: {
  searchParams: Promise<{ workspace?: string | string[] }>;
}) {
  const { workspace } = await searchParams;
  const initial = isWorkspaceKey(workspace) ? workspace : null;
  return (
    <>
      <PageHeader
        title="What a chat receives"
        description="The exact memory text sent with a chat's messages, its token estimate, and the memories left out."
      />
      <Prefetch queries={[memoryQueries.payload(initial)]}>
        <PayloadView initialWorkspace={initial} />
      </Prefetch>
    </>
  );
}
