import type { Metadata } from "next";
import { DoctorReport } from "@/components/support/doctor-report";
import { PageHeader } from "@/components/ui/page-header";
import { Time } from "@/components/ui/time";
import { pageSource } from "@/server/source/edge";
import { warmLane } from "@/server/workers/log-worker";

export const metadata: Metadata = { title: "Doctor report" };
export const dynamic = "force-dynamic";

/**
 * Every problem `oda-admin doctor` finds (the bundle's own report when a bundle is shown), each with its
 * links. The page answers at once; the report streams in from `/api/doctor` as the logs are read.
 */
export default async function DoctorPage() {
  const ctx = await pageSource();
  const bundle = ctx.bundle;
  // The report's reading of the logs runs on a thread of its own: started now, while the browser loads this page.
  if (!bundle && ctx.roots.logs) warmLane("doctor");
  return (
    <div>
      <PageHeader
        title="Doctor report"
        description={
          bundle ? (
            <>
              As the bundle&apos;s computer found it on <Time iso={bundle.manifest.createdAt} />.
            </>
          ) : (
            "Every problem under the Oda home and the log folder, as oda-admin doctor finds them."
          )
        }
      />
      <DoctorReport />
    </div>
  );
}
