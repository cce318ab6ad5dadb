/** One column of `ColumnHeads`: its visible name and the cell's classes (padding, alignment, when it hides). */
export interface ColumnHead {
  label: string;
  className: string;
}

/** A table's header row: one `<th scope="col">` per column, under the memory tables' rule. */
export function ColumnHeads({ columns }: { columns: ColumnHead[] }) {
  return (
    <thead className="border-b border-zinc-300 dark:border-zinc-700">
      <tr>
        {columns.map((c) => (
          <th key={c.label} scope="col" className={c.className}>
            {c.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
