import type { Metadata } from "next";
import { EditorPage } from "@/components/memory/editor-page";

export const metadata: Metadata = { title: "New global memory" };
export const dynamic = "force-dynamic";

export default function NewGlobalMemoryPage() {
  return <EditorPage workspace={null} id={null} />;
}
