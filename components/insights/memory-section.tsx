import type { MemoryInsights } from "@/lib/insights";
import { budgetTable, memorySetTable } from "@/lib/insights/tables";
import { BarChart } from "./bar-chart";
import { ChartCard } from "./chart-card";
import { InsightsSection } from "./section";

/** Memory: what a chat in each workspace receives against the limit, and memories per set and source. */
export function MemorySection({ memory }: { memory: MemoryInsights | null }) {
  return (
    <InsightsSection id="memory" title="Memory">
      {!memory ? (
        <p className="text-zinc-700 dark:text-zinc-300">No Oda home is set, so there are no memories to count.</p>
      ) : (
        <>
          <ChartCard
            title="Memory tokens per workspace"
            table={budgetTable(memory)}
            file="memory-tokens"
            chart={
              <BarChart
                categories={memory.budgets.map((b) => b.workspace ?? "(none)")}
                series={[
                  { label: "Global memories", values: memory.budgets.map((b) => b.globalTokens) },
                  { label: "Workspace memories", values: memory.budgets.map((b) => b.tokens - b.globalTokens) },
                ]}
                label={`Tokens of memory a chat receives in each of ${memory.budgets.length} workspaces (and with none), against a limit of ${memory.budgets[0]?.limit.toLocaleString("en")}. The table view lists every number.`}
              />
            }
          >
            <p>
              Each chat receives the global set and its workspace&apos;s set; the limit is{" "}
              {memory.budgets[0]?.limit.toLocaleString("en")} tokens.
              {memory.budgets.some((b) => b.tokens > b.limit) && " Some workspaces are over it."}
            </p>
          </ChartCard>
          <ChartCard title="Memories per set and source" table={memorySetTable(memory)} file="memories-per-set" />
        </>
      )}
    </InsightsSection>
  );
}
