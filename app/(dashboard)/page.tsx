import type { Metadata } from "next";
import { GlanceCards } from "@/components/home/glance-cards";
import { RootsCard } from "@/components/home/roots-card";
import { serverRoots } from "@/server/roots";

export const metadata: Metadata = { title: "Home" };
export const dynamic = "force-dynamic";

export default async function HomePage() {
  const roots = serverRoots();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Oda Admin</h1>
        <p className="mt-1 text-zinc-700 dark:text-zinc-300">
          Look after DataMind Oda&apos;s memories and chat logs on this computer.
        </p>
      </div>
      <GlanceCards roots={roots} />
      <RootsCard roots={roots} />
    </div>
  );
}
