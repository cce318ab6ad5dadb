"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { getOverviewAction } from "@/app/_actions/memory";
import { unwrap } from "@/components/ui/action-error";
import { queryKeys } from "@/lib/query-keys";
import { setHref } from "@/lib/routes";
import { BudgetBar, BudgetLegend } from "./budget-bar";
import { MemorySearch } from "./memory-search";
import { setLabel } from "./names";
import { SettingsProblems } from "./problem-list";

/** Settings > Memory: every set with its counts, every chat's budget, and search across all memories. */
export function MemoryOverview() {
  const query = useQuery({
    queryKey: queryKeys.memory.overview(),
    queryFn: () => unwrap(getOverviewAction({})),
    refetchInterval: 2_000,
  });
  if (query.isPending) return <p role="status">Reading the memory sets…</p>;
  if (query.isError)
    return (
      <p role="alert" className="text-red-700 dark:text-red-400">
        {query.error.message}
      </p>
    );
  const { sets, budgets, settingsProblems } = query.data;
  return (
    <div className="space-y-8">
      <SettingsProblems problems={settingsProblems} />
      <section aria-labelledby="sets-heading" className="space-y-3">
        <h2 id="sets-heading" className="text-lg font-semibold">
          Memory sets
        </h2>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[20rem] text-left text-sm">
            <thead className="border-b border-zinc-300 dark:border-zinc-700">
              <tr>
                <th scope="col" className="py-2 pr-3">
                  Set
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Memories
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  On
                </th>
                <th scope="col" className="py-2 pl-3 text-right">
                  Problems
                </th>
              </tr>
            </thead>
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
