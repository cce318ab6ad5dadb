import { useId } from "react";

/** A labelled progress bar for anything long (listing, indexing). `total` null = unknown yet. */
export function Progress({ label, done, total }: { label: string; done: number; total: number | null }) {
  // A generated id: a label with a space made `aria-labelledby` name two ids that do not exist.
  const labelId = useId();
  const percent = total ? Math.min(100, Math.round((done / total) * 100)) : undefined;
  return (
    <div className="space-y-1">
      <div className="flex justify-between text-sm">
        <span id={labelId}>{label}</span>
        <span>
          {total ? `${done.toLocaleString("en")} / ${total.toLocaleString("en")}` : `${done.toLocaleString("en")}…`}
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={total ?? undefined}
        aria-valuenow={total ? done : undefined}
        className="h-2 overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800"
      >
        <div
          className={`h-full bg-blue-600 ${percent === undefined ? "w-1/3 animate-pulse" : ""}`}
          style={percent === undefined ? undefined : { width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
