import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { workspaceFromParam } from "@/components/memory/editor-page";
import { SetPage } from "@/components/memory/set-page";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ key: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const key = workspaceFromParam((await params).key);
  return { title: key === null ? "Not found" : `Workspace ${key}` };
}

export default async function WorkspaceSetPage({ params }: Params) {
  const key = workspaceFromParam((await params).key);
  if (key === null) notFound();
  return <SetPage workspace={key} />;
}
