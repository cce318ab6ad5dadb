"use client";

import { useQuery } from "@tanstack/react-query";
import { compareCopiesAction } from "@/app/_actions/repairs";
import { unwrap } from "@/components/ui/action-error";
import { Badge } from "@/components/ui/badge";
import { QueryState } from "@/components/ui/query-state";
import { FixButton } from "./fix-button";

/** The copies of a chat stored in two places side by side (sizes, lines, activity, SHA-256, which leads), each with Set aside. */
export function DuplicateCompare({ chat }: { chat: string }) {
  const query = useQuery({
    queryKey: ["repairs", "copies", chat],
    queryFn: () => unwrap(compareCopiesAction({ chat })),
  });
  if (!query.isSuccess) return <QueryState query={query} loading="Comparing the copies…" />;
  return (
    <div className="grid gap-3 md:grid-cols-2">
      {query.data.map((copy) => (
        <section
          key={copy.dir}
          aria-label={`Copy in ${copy.dir}`}
          className="space-y-1 rounded border border-zinc-300 p-2 text-sm dark:border-zinc-700"
        >
          <p className="font-mono text-xs break-all">{copy.dir}</p>
          {copy.leads && <Badge tone="info">leads</Badge>}
          <p>
            {copy.lines} lines, {copy.messages} messages, last activity {copy.lastActivity ?? "unknown"}
          </p>
          <ul className="text-xs">
            {copy.files.map((f) => (
              <li key={f.name} className="break-all">
                {f.name}: {f.bytes} bytes, sha256 <span className="font-mono">{f.sha256.slice(0, 16)}…</span>
              </li>
            ))}
          </ul>
          <FixButton
            target={{ kind: "duplicate", chat, setAside: copy.dir }}
            label="Set this copy aside"
            name={`Set aside the copy in ${copy.dir}`}
            title="Set this copy aside?"
          />
        </section>
      ))}
    </div>
  );
}
