import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { HistoryPage } from "@/components/memory/history-page";
import { isMemoryId } from "@/lib/memory/names";

export const metadata: Metadata = { title: "Memory history" };

export default async function GlobalMemoryHistoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ version?: string | string[]; compare?: string | string[] }>;
}) {
  const { id } = await params;
  const { version, compare } = await searchParams;
  if (!isMemoryId(id)) notFound();
  return (
    <HistoryPage
      workspace={null}
      id={id}
      initialVersion={typeof version === "string" ? version : null}
      initialCompare={typeof compare === "string" ? compare : null}
    />
  );
}
