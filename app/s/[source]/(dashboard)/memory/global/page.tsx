import type { Metadata } from "next";
import { SetPage } from "@/components/memory/set-page";

export const metadata: Metadata = { title: "Global memories" };
export const dynamic = "force-dynamic";

export default function GlobalSetPage() {
  return <SetPage workspace={null} />;
}
