import type { Metadata } from "next";
import { memoryQueries } from "@/components/memory/queries";
import { SettingsForm } from "@/components/memory/settings-form";
import { Prefetch } from "@/components/shell/prefetch";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Memory settings" };
export const dynamic = "force-dynamic";

export default function MemorySettingsPage() {
  return (
    <>
      <PageHeader
        title="Memory settings"
        description="The limits every memory is checked against, kept in settings.json in the Oda home."
      />
      <Prefetch queries={[memoryQueries.settings()]}>
        <SettingsForm />
      </Prefetch>
    </>
  );
}
