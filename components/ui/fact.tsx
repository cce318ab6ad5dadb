import type { ReactNode } from "react";

/**
 * One term and its value inside a `<dl>`: the inspector's header and details
 * and the duplicate copies' comparison all show their facts this way.
 * `mono` is for ids and paths, which break anywhere.
 */
export function Fact({ term, children, mono = false }: { term: string; children: ReactNode; mono?: boolean }) {
  return (
    <div className="flex flex-wrap gap-x-2">
      <dt className="font-medium">{term}:</dt>
      <dd className={`min-w-0 ${mono ? "font-mono break-all" : "break-words"}`}>{children}</dd>
    </div>
  );
}
