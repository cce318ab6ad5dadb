import type { Metadata } from "next";
import { CreateBundle } from "@/components/bundle/create-bundle";
import { OpenBundle } from "@/components/bundle/open-bundle";
import { Link } from "@/components/ui/link";
import { PageHeader } from "@/components/ui/page-header";
import { pageSource } from "@/server/source/edge";

export const metadata: Metadata = { title: "Support bundle" };
export const dynamic = "force-dynamic";

/** Share with support: one checked, redacted file; and opening one read-only. */
export default async function SupportPage() {
  const { bundle } = await pageSource();
  return (
    <div className="space-y-8">
      <PageHeader
        title="Support bundle"
        description="One file for DataMind support or a colleague: exactly what you choose, checked, with secrets replaced the same way in every file."
        actions={
          <Link className="underline" href="/support/doctor">
            Doctor report
          </Link>
        }
      />
      {bundle ? (
        <p role="status">
          This page shows the support bundle {bundle.name}; make a bundle of this computer&apos;s files from the live
          Support page.
        </p>
      ) : (
        <CreateBundle />
      )}
      <OpenBundle />
    </div>
  );
}
