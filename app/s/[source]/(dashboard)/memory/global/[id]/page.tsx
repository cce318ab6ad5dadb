import type { Metadata } from "next";
import { EditorPage } from "@/components/memory/editor-page";

export const metadata: Metadata = { title: "Edit memory" };
export const dynamic = "force-dynamic";

export default async function GlobalMemoryPage({ params }: { params: Promise<{ id: string }> }) {
  return <EditorPage workspace={null} id={(await params).id} />;
}
