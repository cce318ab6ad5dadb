import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Metadata } from "next";
import { withPageNumbers } from "@/components/memory/page-numbers";
import { Link } from "@/components/ui/link";
import { MomentText } from "@/components/ui/moment-text";
import { PageHeader } from "@/components/ui/page-header";
import { PathText } from "@/components/ui/path-text";
import { Time } from "@/components/ui/time";
import { BOUNDED_READ, type DoctorReport, runDoctor } from "@/lib/doctor";
import { listRepairable, type Repairable } from "@/lib/repair";
import { repairRoots } from "@/server/jobs/repairs";
import type { SourceContext } from "@/server/source/context";
import { pageSource } from "@/server/source/edge";
import { doctorView } from "@/server/views/doctor-view";

export const metadata: Metadata = { title: "Doctor report" };
export const dynamic = "force-dynamic";

/** What the Repairs page offers here; none in a bundle (read-only) or without an admin state. */
async function offeredRepairs(ctx: SourceContext): Promise<Repairable[] | null> {
  if (!ctx.canWrite) return null;
  try {
    return await listRepairable(repairRoots(ctx));
  } catch {
    return null;
  }
}

const LINK = "text-blue-800 underline dark:text-blue-300";

/** Every problem `oda-admin doctor` finds (the bundle's own report when a bundle is shown), each with its links. */
export default async function DoctorPage() {
  const ctx = await pageSource();
  const bundle = ctx.bundle;
  const [report, repairable] = await Promise.all([
    bundle
      ? (JSON.parse(readFileSync(join(bundle.dir, "bundle", "doctor.json"), "utf8")) as DoctorReport)
      : runDoctor(ctx.roots, BOUNDED_READ),
    offeredRepairs(ctx),
  ]);
  const sections = doctorView(report, repairable);
  const count = sections.reduce((n, s) => n + s.items.length, 0);
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
      <p className="mb-4">
        {count === 0 ? "No problems found." : `${count.toLocaleString("en")} problem${count === 1 ? "" : "s"} found.`}
      </p>
      {sections.map((s) => (
        <section key={s.name} aria-labelledby={`doctor-${s.name.replace(/\W/g, "-")}`} className="mb-6">
          <h2 id={`doctor-${s.name.replace(/\W/g, "-")}`} className="text-lg font-semibold">
            {s.name === "memory" ? "Memory" : "Chat logs"} ({s.items.length.toLocaleString("en")})
          </h2>
          {s.items.length === 0 ? (
            <p className="mt-2 text-sm">No problems.</p>
          ) : (
            <ul aria-label={`Problems: ${s.name}`} className="mt-2 space-y-3 text-sm">
              {s.items.map((p) => (
                <li
                  key={`${p.path}:${p.line ?? ""}:${p.message}`}
                  aria-label={p.place}
                  className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800"
                >
                  <p className="font-medium" title={p.path}>
                    <PathText path={p.place} />
                    {p.line === undefined ? "" : `, line ${p.line.toLocaleString("en")}`}
                  </p>
                  <p className="mt-1 break-words">
                    <MomentText text={withPageNumbers(p.message)} />
                  </p>
                  {p.links.length > 0 && (
                    <p className="mt-1 flex flex-wrap gap-x-4">
                      {p.links.map((l) => (
                        <Link key={l.label} className={LINK} href={l.href}>
                          {l.label}
                        </Link>
                      ))}
                    </p>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
