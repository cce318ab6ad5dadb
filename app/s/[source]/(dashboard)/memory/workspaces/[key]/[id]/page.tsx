import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { EditorPage, workspaceFromParam } from "@/components/memory/editor-page";

export const metadata: Metadata = { title: "Edit memory" };
export const dynamic = "force-dynamic";

export default async function WorkspaceMemoryPage({ params }: { params: Promise<{ key: string; id: string }> }) {
  const { key: raw, id } = await params;
  const key = workspaceFromParam(raw);
  if (key === null) notFound();
  return <EditorPage workspace={key} id={id} />;
}
