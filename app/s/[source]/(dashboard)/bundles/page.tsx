import type { Metadata } from "next";
import { BundleList } from "@/components/bundle/bundle-list";
import { CompareForm } from "@/components/bundle/compare-form";
import { OpenBundle } from "@/components/bundle/open-bundle";
import { PageHeader } from "@/components/ui/page-header";
import { sources } from "@/server/source/registry";

export const metadata: Metadata = { title: "Bundles" };
export const dynamic = "force-dynamic";

/** The support bundles open in this dashboard, side by side with the live installation; open and close them. */
export default function BundlesPage() {
  const opened = sources()
    .bundles()
    .map((ctx) => {
      const bundle = ctx.bundle;
      if (!bundle) throw new Error("A bundle source without its bundle.");
      const { counts, createdAt, odaAdminVersion } = bundle.manifest;
      return {
        id: ctx.id,
        href: ctx.prefix,
        name: bundle.name,
        createdAt,
        openedAt: bundle.openedAt,
        madeBy: odaAdminVersion,
        bytes: counts.bytes,
        files: counts.files,
        problems: counts.problems,
      };
    });
  return (
    <div className="space-y-8">
      <PageHeader
        title="Bundles"
        description="Support bundles open in this dashboard, each read-only at its own address, beside the live data."
      />
      <BundleList bundles={opened} />
      {opened.length >= 2 && (
        <section aria-labelledby="compare-heading" className="space-y-3">
          <h2 id="compare-heading" className="text-xl font-semibold">
            Compare two bundles
          </h2>
          <p className="text-sm">Before and after a fix: the chats, problems, memories and settings that changed.</p>
          <CompareForm bundles={opened} />
        </section>
      )}
      <OpenBundle />
    </div>
  );
}
