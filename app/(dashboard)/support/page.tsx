import type { Metadata } from "next";
import Link from "next/link";
import { CreateBundle } from "@/components/bundle/create-bundle";
import { OpenBundle } from "@/components/bundle/open-bundle";
import { PageHeader } from "@/components/ui/page-header";
import { activeBundle } from "@/server/bundle";

export const metadata: Metadata = { title: "Support bundle" };
export const dynamic = "force-dynamic";

/** Share with support: one checked, redacted file; and opening one read-only. */
export default function SupportPage() {
  const bundle = activeBundle();
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
          This dashboard shows the support bundle {bundle.name}; close it to make a bundle of this computer&apos;s
          files.
        </p>
      ) : (
        <CreateBundle />
      )}
      <OpenBundle />
    </div>
  );
}
