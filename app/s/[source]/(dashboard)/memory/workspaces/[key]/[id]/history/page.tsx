import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { HistoryPage } from "@/components/memory/history-page";
import { isMemoryId, isWorkspaceKey } from "@/lib/memory/names";

export const metadata: Metadata = { title: "Memory history" };

export default async function WorkspaceMemoryHistoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ key: string; id: string }>;
  searchParams: Promise<{ version?: string | string[]; compare?: string | string[] }>;
}) {
  const { key: rawKey, id } = await params;
  const { version, compare } = await searchParams;
  let key = rawKey;
  try {
    key = decodeURIComponent(rawKey);
  } catch {
    notFound();
  }
  if (!isWorkspaceKey(key) || !isMemoryId(id)) notFound();
  return (
    <HistoryPage
      workspace={key}
      id={id}
      initialVersion={typeof version === "string" ? version : null}
      initialCompare={typeof compare === "string" ? compare : null}
    />
  );
}
