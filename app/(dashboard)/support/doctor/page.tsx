import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Time } from "@/components/ui/time";
import { BOUNDED_READ, type DoctorReport, runDoctor } from "@/lib/doctor";
import { activeBundle } from "@/server/bundle";
import { serverRoots } from "@/server/roots";

export const metadata: Metadata = { title: "Doctor report" };
export const dynamic = "force-dynamic";

/** Every problem `oda-admin doctor` finds: the bundle's own report when a bundle is shown. */
export default async function DoctorPage() {
  const bundle = activeBundle();
  const report: DoctorReport = bundle
    ? JSON.parse(readFileSync(join(bundle.dir, "bundle", "doctor.json"), "utf8"))
    : await runDoctor(serverRoots(), BOUNDED_READ);
  const count = report.sections.reduce((n, s) => n + s.problems.length, 0);
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
      <p className="mb-4">{count === 0 ? "No problems found." : `${count} problem${count === 1 ? "" : "s"} found.`}</p>
      {report.sections.map((s) => (
        <section key={s.name} className="mb-6">
          <h2 className="text-lg font-semibold">
            {s.name} ({s.problems.length})
          </h2>
          <ul className="mt-2 space-y-2 text-sm">
            {s.problems.map((p) => (
              <li key={`${p.path}:${p.line ?? ""}:${p.message}`}>
                <code className="break-all">
                  {p.path}
                  {p.line === undefined ? "" : `:${p.line}`}
                </code>
                <p>{p.message}</p>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
