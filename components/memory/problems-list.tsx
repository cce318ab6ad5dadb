"use client";

import { useQuery } from "@tanstack/react-query";
import { FixButton } from "@/components/repairs/fix-button";
import { Link } from "@/components/ui/link";
import { QueryState } from "@/components/ui/query-state";
import { setName } from "./names";
import { withPageNumbers } from "./page-numbers";
import { ProblemsFile } from "./problems-file";
import { memoryQueries } from "./queries";

/** Every problem under the Oda home: memory files of every set (with a raw editor) and settings problems. */
export function ProblemsList() {
  const query = useQuery(memoryQueries.problems());
  if (!query.isSuccess) return <QueryState query={query} loading="Reading every memory file…" />;
  const problems = query.data;
  return (
    <div className="space-y-4">
      <p aria-live="polite" className="text-sm">
        {problems.length === 0
          ? "No problems: every memory file and settings.json read cleanly."
          : `${problems.length} ${problems.length === 1 ? "problem" : "problems"}. A memory file with a problem is never sent to a chat.`}
      </p>
      <ul aria-label="Problems" className="space-y-4">
        {problems.map((p) => (
          <li
            key={`${p.path}:${p.message}`}
            aria-label={p.path}
            className="space-y-2 rounded-md border border-red-300 p-3 dark:border-red-800"
          >
            <h2 className="font-mono text-sm font-semibold break-all">{p.path}</h2>
            <p className="text-sm text-zinc-700 dark:text-zinc-300">
              {p.id !== null
                ? `${setName(p.workspace)} memory ${p.id}`
                : p.path === "settings.json"
                  ? "Settings"
                  : `${setName(p.workspace)} set`}
              {p.line !== null ? ` · line ${p.line}` : ""}
            </p>
            <p className="text-sm font-medium text-red-800 dark:text-red-300">{withPageNumbers(p.message)}</p>
            {p.id !== null && (
              <FixButton
                target={{ kind: "memory", workspace: p.workspace, memory: p.id }}
                label="Set aside"
                name={`Set aside ${p.path}`}
                title="Set this memory file aside?"
              />
            )}
            {p.id !== null ? (
              <ProblemsFile
                workspace={p.workspace}
                id={p.id}
                path={p.path}
                raw={p.raw}
                sha256={p.sha256}
                line={p.line}
              />
            ) : p.path === "settings.json" ? (
              <p className="text-sm">
                Fix it in{" "}
                <Link className="text-blue-700 underline dark:text-blue-300" href="/memory/settings">
                  Memory settings
                </Link>{" "}
                or in the file; until then the default is used.
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
