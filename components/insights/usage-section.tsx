import { Link } from "@/components/ui/link";
import type { InsightsOverview } from "@/lib/insights";
import { filteredChatsHref, scopeFilter } from "@/lib/insights/links";
import { chatUsageTable, folderUsageTable, modelTable, periodTable } from "@/lib/insights/tables";
import { BarChart, type BarSeries } from "./bar-chart";
import { ChartCard } from "./chart-card";
import { InsightsSection } from "./section";
import { TokenCounting } from "./token-counting";
import { TopFoldersChart } from "./top-folders-chart";

const MAX_SERIES = 6;
const n = (v: number) => v.toLocaleString("en");

/** The models with the most tokens keep their own colour; the rest are summed as "other models". */
function modelSeries(o: InsightsOverview): BarSeries[] {
  const names = o.usage.totals.modelBreakdowns.filter((m) => m.totalTokens > 0).map((m) => m.modelName);
  const own = names.slice(0, MAX_SERIES);
  const series: BarSeries[] = own.map((name) => ({
    label: name,
    values: o.usage.rows.map((r) => r.modelBreakdowns.find((m) => m.modelName === name)?.totalTokens ?? 0),
  }));
  if (names.length > own.length)
    series.push({
      label: "other models",
      values: o.usage.rows.map((r) =>
        r.modelBreakdowns.filter((m) => !own.includes(m.modelName)).reduce((t, m) => t + m.totalTokens, 0),
      ),
    });
  return series;
}

/** Usage: tokens and messages per period and model, per folder, and the top chats. */
export function UsageSection({ overview: o }: { overview: InsightsOverview }) {
  const t = o.usage.totals;
  const unit = o.usage.period === "daily" ? "day" : o.usage.period === "weekly" ? "week" : "month";
  const periods = periodTable(o.usage);
  return (
    <InsightsSection id="usage" title="Usage">
      <p className="text-zinc-700 dark:text-zinc-300">
        {n(t.inputTokens)} input and {n(t.outputTokens)} output tokens ({n(t.totalTokens)} in all) over {n(t.messages)}{" "}
        messages.{" "}
        <Link
          href={filteredChatsHref(scopeFilter(o.usage.scope))}
          className="text-blue-800 underline dark:text-blue-300"
        >
          The chats they come from
        </Link>
      </p>
      <TokenCounting timezone={o.usage.scope.timezone} />
      {o.usage.note && (
        <p className="rounded-md bg-amber-50 p-2 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100">
          {o.usage.note}
        </p>
      )}
      <ChartCard
        title={`Tokens per ${unit}, by model`}
        table={periods}
        file={`tokens-per-${unit}`}
        chart={
          <BarChart
            categories={o.usage.rows.map((r) => r.period)}
            series={modelSeries(o)}
            label={`Tokens per ${unit}, stacked by model, over ${o.usage.rows.length} ${unit}s: ${n(t.totalTokens)} tokens in all. The table view lists every number.`}
          />
        }
      />
      <ChartCard
        title="Tokens per model"
        table={modelTable(o.usage)}
        file="tokens-per-model"
        chart={
          <BarChart
            categories={t.modelBreakdowns.map((m) => m.modelName || "(no model)")}
            series={[{ label: "Total tokens", values: t.modelBreakdowns.map((m) => m.totalTokens) }]}
            label={`Total tokens of each of ${t.modelBreakdowns.length} models. The table view lists every number.`}
          />
        }
      >
        <p>Messages that name no model are users&apos; messages and format 1 lines.</p>
      </ChartCard>
      <TopFoldersChart
        title="Tokens per working folder"
        table={folderUsageTable(o.folders, o.usage.scope)}
        file="tokens-per-folder"
        folders={o.folders}
        series={[{ label: "Total tokens", value: (f) => f.totalTokens }]}
        labelFor={(shown) =>
          `Total tokens of the ${shown} working folders with the most. The table view lists every folder.`
        }
      />
      <ChartCard title="Chats with the most tokens" table={chatUsageTable(o.chats)} file="top-chats" />
    </InsightsSection>
  );
}
