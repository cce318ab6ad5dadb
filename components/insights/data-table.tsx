import { Link } from "@/components/ui/link";
import type { Table } from "@/lib/insights/tables";

/** A report table: caption, header cells with scope, numbers right-aligned with every digit. */
export function DataTable({ table, limit = 500 }: { table: Table; limit?: number }) {
  const rows = table.rows.slice(0, limit);
  return (
    <div
      // biome-ignore lint/a11y/noNoninteractiveTabindex: lets keyboard users scroll a long table (axe: scrollable-region-focusable)
      tabIndex={0}
      className="max-h-[28rem] overflow-auto focus-visible:outline-2 focus-visible:outline-blue-600"
    >
      <table className="w-full border-collapse text-sm">
        <caption className="mb-2 text-left text-sm text-zinc-700 dark:text-zinc-300">
          {table.caption}
          {table.rows.length > limit &&
            ` (the first ${limit} of ${table.rows.length.toLocaleString("en")} rows; the CSV has them all)`}
        </caption>
        <thead>
          <tr className="border-b border-zinc-300 dark:border-zinc-700">
            {table.columns.map((c) => (
              <th
                key={c.label}
                scope="col"
                className={`px-2 py-1 font-medium ${c.numeric ? "text-right" : "text-left"}`}
              >
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            // The first cell (day, folder, model, chat) is unique within a table.
            <tr key={String(r[0])} className="border-b border-zinc-100 dark:border-zinc-800">
              {r.map((v, j) => {
                const numeric = table.columns[j]?.numeric;
                const text = typeof v === "number" ? v.toLocaleString("en") : v;
                const href = table.links?.[table.columns[j]?.label ?? ""]?.[i];
                return j === 0 ? (
                  <th key={table.columns[j]?.label} scope="row" className="px-2 py-1 text-left font-normal break-all">
                    {text}
                  </th>
                ) : (
                  <td
                    key={table.columns[j]?.label}
                    className={`px-2 py-1 ${numeric ? "text-right tabular-nums" : "break-all"}`}
                  >
                    {href ? (
                      <Link
                        href={href}
                        title={`The chats behind this number: ${String(r[0])}`}
                        className="text-blue-800 underline dark:text-blue-300"
                      >
                        {text}
                      </Link>
                    ) : (
                      text
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
