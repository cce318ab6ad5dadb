"use client";

import { useQuery } from "@tanstack/react-query";
import { countOf, formatBytes } from "@/components/chats/format";
import { useRead } from "@/components/shell/use-read";
import { Badge } from "@/components/ui/badge";
import { Fact } from "@/components/ui/fact";
import { Link } from "@/components/ui/link";
import { QueryState } from "@/components/ui/query-state";
import { Time } from "@/components/ui/time";
import { chatHref } from "@/lib/routes";
import { FixButton } from "./fix-button";

/**
 * The copies of a chat stored in two places side by side: sizes, lines,
 * messages, first and last activity, each file's SHA-256, which copy leads, a
 * link to read each copy (read-only) and Set aside.
 */
export function DuplicateCompare({ chat, viewing }: { chat: string; viewing?: number }) {
  const read = useRead();
  const query = useQuery({
    queryKey: ["repairs", "copies", chat],
    queryFn: () => read("repairs.copies", { chat }),
  });
  if (!query.isSuccess) return <QueryState query={query} loading="Comparing the copies…" />;
  return (
    <div className="grid gap-3 md:grid-cols-2">
      {query.data.map((copy, i) => (
        <section
          key={copy.dir}
          aria-label={`Copy ${i + 1}, in ${copy.dir}`}
          className="min-w-0 space-y-2 rounded border border-zinc-300 bg-white p-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
        >
          <h3 className="font-semibold">
            Copy {i + 1} {copy.leads && <Badge tone="info">leads</Badge>}
          </h3>
          <p className="font-mono text-xs break-all">{copy.dir}</p>
          <dl className="space-y-0.5">
            <Fact term="Log">{copy.current ?? "no usable log"}</Fact>
            <Fact term="Lines">{countOf(copy.lines, "line")}</Fact>
            <Fact term="Messages">{copy.messages}</Fact>
            <Fact term="First activity">
              <Time iso={copy.firstActivity} />
            </Fact>
            <Fact term="Last activity">
              <Time iso={copy.lastActivity} />
            </Fact>
          </dl>
          <ul aria-label={`Files of copy ${i + 1}`} className="space-y-1 text-xs">
            {copy.files.map((f) => (
              <li key={f.name} className="break-all">
                <span className="font-mono">{f.name}</span>:{" "}
                <span title={`${f.bytes} bytes`}>{formatBytes(f.bytes)}</span> ({f.bytes} bytes), SHA-256{" "}
                <span className="font-mono">{f.sha256}</span>
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap items-center gap-3">
            {viewing === i ? (
              <span className="text-xs font-medium">Shown below</span>
            ) : (
              <Link className="text-blue-800 underline dark:text-blue-300" href={chatHref(chat, { copy: i })}>
                View copy {i + 1} (read-only)
              </Link>
            )}
            <FixButton
              target={{ kind: "duplicate", chat, setAside: copy.dir }}
              label="Set this copy aside"
              name={`Set this copy aside: copy ${i + 1}, in ${copy.dir}`}
              title="Set this copy aside?"
            />
          </div>
        </section>
      ))}
    </div>
  );
}
