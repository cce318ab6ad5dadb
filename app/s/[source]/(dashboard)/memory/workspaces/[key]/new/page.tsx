import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { EditorPage, workspaceFromParam } from "@/components/memory/editor-page";

export const metadata: Metadata = { title: "New memory" };
export const dynamic = "force-dynamic";

export default async function NewWorkspaceMemoryPage({ params }: { params: Promise<{ key: string }> }) {
  const key = workspaceFromParam((await params).key);
  if (key === null) notFound();
  return <EditorPage workspace={key} id={null} />;
}
