import type { Table } from "@/lib/insights/tables";
import { BarChart } from "./bar-chart";
import { ChartCard } from "./chart-card";

/** How many working folders a chart draws; its table view lists every one. */
const TOP_FOLDERS = 15;

/**
 * A chart of the working folders with the most of something (bytes, tokens):
 * the first folders of `folders` (already sorted, largest first) as bars, one
 * series per kind, with the table view of every folder beside it.
 */
export function TopFoldersChart<F extends { cwd: string | null }>({
  title,
  table,
  file,
  folders,
  series,
  labelFor,
}: {
  title: string;
  table: Table;
  /** The CSV file's name, without `.csv`. */
  file: string;
  folders: F[];
  /** One series per kind, its value read from each folder. */
  series: { label: string; value: (folder: F) => number }[];
  /** The chart's text alternative, given how many folders it draws. */
  labelFor: (shown: number) => string;
}) {
  const top = folders.slice(0, TOP_FOLDERS);
  return (
    <ChartCard
      title={title}
      table={table}
      file={file}
      chart={
        <BarChart
          categories={top.map((f) => f.cwd ?? "(none)")}
          series={series.map((s) => ({ label: s.label, values: top.map(s.value) }))}
          label={labelFor(top.length)}
        />
      }
    />
  );
}
