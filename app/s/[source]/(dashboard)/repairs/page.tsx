import type { Metadata } from "next";
import { repairsQueries } from "@/components/repairs/queries";
import { RepairsView } from "@/components/repairs/repairs-view";
import { Prefetch } from "@/components/shell/prefetch";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Repairs" };
export const dynamic = "force-dynamic";

export default function RepairsPage() {
  return (
    <>
      <PageHeader
        title="Repairs"
        description="Guided repairs of what the dashboard diagnoses. Each one previews its changes, holds the chat's lock, keeps every replaced or moved file in the admin state, and can be undone."
      />
      <Prefetch queries={[repairsQueries.overview(), repairsQueries.job()]}>
        <RepairsView />
      </Prefetch>
    </>
  );
}
