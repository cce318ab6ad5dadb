"use client";

import { useQuery } from "@tanstack/react-query";
import { type ColumnHead, ColumnHeads } from "@/components/ui/column-heads";
import { Link } from "@/components/ui/link";
import { QueryState } from "@/components/ui/query-state";
import { memoryPages, setHref } from "@/lib/routes";
import { BudgetBar, BudgetLegend } from "./budget-bar";
import { MemorySearch } from "./memory-search";
import { setLabel } from "./names";
import { SettingsProblems } from "./problem-list";
import { memoryQueries } from "./queries";

const SET_COLUMNS: ColumnHead[] = [
  { label: "Set", className: "py-2 pr-3" },
  { label: "Memories", className: "px-3 py-2 text-right" },
  { label: "On", className: "px-3 py-2 text-right" },
  { label: "Problems", className: "py-2 pl-3 text-right" },
];

/** Settings > Memory: every set with its counts, every chat's budget, and search across all memories. */
export function MemoryOverview() {
  const query = useQuery(memoryQueries.overview());
  if (!query.isSuccess) return <QueryState query={query} loading="Reading the memory sets…" />;
  const { sets, budgets, settingsProblems } = query.data;
  return (
    <div className="space-y-8">
      <SettingsProblems problems={settingsProblems} />
      <p>
        <Link href={memoryPages.health} className="text-blue-800 underline dark:text-blue-300">
          Check memory health
        </Link>
        : duplicates, conflicts, budgets and problem files across every set.
      </p>
      <section aria-labelledby="sets-heading" className="space-y-3">
        <h2 id="sets-heading" className="text-lg font-semibold">
          Memory sets
        </h2>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[20rem] text-left text-sm">
            <ColumnHeads columns={SET_COLUMNS} />
            <tbody>
              {sets.map((s) => (
                <tr key={s.workspace ?? "global"} className="border-b border-zinc-200 dark:border-zinc-800">
                  <th scope="row" className="py-2 pr-3 font-normal">
                    <Link href={setHref(s.workspace)} className="text-blue-800 underline dark:text-blue-300">
                      {setLabel(s.workspace)}
                    </Link>
                  </th>
                  <td className="px-3 py-2 text-right tabular-nums">{s.memories.length}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{s.memories.filter((m) => m.enabled).length}</td>
                  <td
                    className={`py-2 pl-3 text-right tabular-nums ${s.problems.length ? "font-semibold text-amber-800 dark:text-amber-300" : ""}`}
                  >
                    {s.problems.length}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="budgets-heading" className="space-y-3">
        <h2 id="budgets-heading" className="text-lg font-semibold">
          What a chat receives
        </h2>
        <BudgetLegend />
        <ul className="space-y-3">
          {budgets.map((b) => (
            <li key={b.workspace ?? "none"}>
              <BudgetBar budget={b} />
            </li>
          ))}
        </ul>
      </section>
      <MemorySearch sets={sets} />
    </div>
  );
}
