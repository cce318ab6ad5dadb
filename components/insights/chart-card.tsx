"use client";

import { type ReactNode, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { type Table, toCsv } from "@/lib/insights/tables";
import { DataTable } from "./data-table";

/**
 * One Insights section: a heading, a chart (or only a table) and, for every
 * chart, a table view with the same numbers and a CSV download.
 */
export function ChartCard({
  title,
  table,
  chart,
  children,
  file,
}: {
  title: string;
  table: Table;
  /** The chart; without one the table is shown. */
  chart?: ReactNode;
  /** Lines under the heading (notes, totals). */
  children?: ReactNode;
  /** The CSV file's name, without `.csv`. */
  file: string;
}) {
  const id = useId();
  const [showTable, setShowTable] = useState(!chart);
  const download = () => {
    const url = URL.createObjectURL(new Blob([toCsv(table)], { type: "text/csv;charset=utf-8" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${file}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <section
      aria-labelledby={`${id}-h`}
      className="space-y-3 rounded-md border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${id}-h`} className="font-medium">
          {title}
        </h3>
        <div className="flex gap-2">
          {chart && (
            <Button aria-pressed={showTable} onClick={() => setShowTable((v) => !v)}>
              Table view
            </Button>
          )}
          <Button onClick={download} aria-label={`Download ${title} as CSV`}>
            CSV
          </Button>
        </div>
      </div>
      {children && <div className="space-y-1 text-sm text-zinc-700 dark:text-zinc-300">{children}</div>}
      {table.rows.length === 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">Nothing to show for these filters.</p>
      ) : showTable || !chart ? (
        <DataTable table={table} />
      ) : (
        chart
      )}
    </section>
  );
}
