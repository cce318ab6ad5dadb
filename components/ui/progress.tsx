import { useId } from "react";

/**
 * A labelled progress bar for anything long (listing, indexing). `total` null = unknown yet. `inline`: the bar
 * alone, its label for screen readers only, to sit in a line of text that already gives the counts (its
 * coming and going then moves nothing below it).
 */
export function Progress({
  label,
  done,
  total,
  inline = false,
}: {
  label: string;
  done: number;
  total: number | null;
  inline?: boolean;
}) {
  // A generated id: a label with a space made `aria-labelledby` name two ids that do not exist.
  const labelId = useId();
  const percent = total ? Math.min(100, Math.round((done / total) * 100)) : undefined;
  const bar = (
    <div
      role="progressbar"
      aria-labelledby={labelId}
      aria-valuemin={0}
      aria-valuemax={total ?? undefined}
      aria-valuenow={total ? done : undefined}
      className={`h-2 overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800 ${inline ? "w-40 shrink-0" : ""}`}
    >
      <div
        className={`h-full bg-blue-600 ${percent === undefined ? "w-1/3 animate-pulse" : ""}`}
        style={percent === undefined ? undefined : { width: `${percent}%` }}
      />
    </div>
  );
  if (inline)
    return (
      <div className="flex items-center">
        <span id={labelId} className="sr-only">
          {label}
        </span>
        {bar}
      </div>
    );
  return (
    <div className="space-y-1">
      <div className="flex justify-between text-sm">
        <span id={labelId}>{label}</span>
        <span>
          {total ? `${done.toLocaleString("en")} / ${total.toLocaleString("en")}` : `${done.toLocaleString("en")}…`}
        </span>
      </div>
      {bar}
    </div>
  );
}
