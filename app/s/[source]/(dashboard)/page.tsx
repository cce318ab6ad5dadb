import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { RedactionReport } from "@/components/bundle/redaction-report";
import { GlanceCards } from "@/components/home/glance-cards";
import { RootsCard } from "@/components/home/roots-card";
import { Link } from "@/components/ui/link";
import { pageSource } from "@/server/source/edge";
import { sources } from "@/server/source/registry";

export const metadata: Metadata = { title: "Home" };
export const dynamic = "force-dynamic";

export default async function HomePage() {
  const ctx = await pageSource();
  const roots = ctx.roots;
  // `serve --bundle`: no live data, the bundle it was started on is what this dashboard is for.
  const [first] = sources().bundles();
  if (ctx.kind === "live" && !roots.home && !roots.logs && first) redirect(first.prefix);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Oda Admin</h1>
        <p className="mt-1 text-zinc-700 dark:text-zinc-300">
          Look after DataMind Oda&apos;s memories and chat logs on this computer.
        </p>
      </div>
      <GlanceCards ctx={ctx} />
      {ctx.bundle && <RedactionReport manifest={ctx.bundle.manifest} />}
      <section aria-labelledby="home-doctor" className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
        <h2 id="home-doctor" className="text-lg font-semibold">
          <Link href="/support/doctor" className="text-blue-700 underline dark:text-blue-300">
            Doctor report
          </Link>
        </h2>
        <p className="mt-2 text-sm">
          Reads every memory file and every log through, as <code>oda-admin doctor</code> does, and lists every problem
          with a link to its chat, its memory or its repair.
        </p>
      </section>
      <RootsCard roots={roots} />
    </div>
  );
}
