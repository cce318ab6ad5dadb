import type { ReactNode } from "react";
import { MemoryNav } from "@/components/memory/memory-nav";

/** Settings > Memory: every memory page shares this sub-navigation. */
export default function MemoryLayout({ children }: { children: ReactNode }) {
  return (
    <div className="space-y-6">
      <MemoryNav />
      {children}
    </div>
  );
}
