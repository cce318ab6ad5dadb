"use client";

import { useId, useMemo } from "react";
import { diffMemory } from "@/lib/diff/memory-diff";
import { DiffView } from "./diff-view";
import { entryLabel, type HistoryEntry } from "./history-model";

export type CompareWith = "current" | "previous";

/** The diff of the selected state against the current text or the state before it, inline or side by side. */
export function HistoryCompare({
  entries,
  selected,
  compareWith,
  onCompareWith,
  mode,
  onMode,
}: {
  entries: HistoryEntry[];
  selected: HistoryEntry;
  compareWith: CompareWith;
  onCompareWith: (c: CompareWith) => void;
  mode: "inline" | "side";
  onMode: (m: "inline" | "side") => void;
}) {
  const selectId = useId();
  const current = entries.find((e) => e.current) ?? null;
  const index = entries.indexOf(selected);
  const previous = entries[index + 1] ?? null;
  const against = compareWith === "current" && current && !selected.current ? "current" : "previous";
  const [oldEntry, newEntry] = against === "current" ? [selected, current] : [previous, selected];
  const diff = useMemo(
    () => diffMemory(oldEntry?.side ?? { title: null, enabled: null, text: "" }, (newEntry ?? selected).side),
    [oldEntry, newEntry, selected],
  );
  const oldLabel = oldEntry ? entryLabel(oldEntry) : "nothing (no earlier version)";
  const newLabel = entryLabel(newEntry ?? selected);
  return (
    <section aria-labelledby={`${selectId}-h`} className="min-w-0 space-y-3 self-start">
      <h2 id={`${selectId}-h`} className="text-lg font-semibold">
        Changes
      </h2>
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor={selectId} className="font-medium">
            Compare {selected.current ? "the current text" : "this version"} with
          </label>
          <select
            id={selectId}
            value={against}
            onChange={(e) => onCompareWith(e.target.value as CompareWith)}
            className="rounded border border-zinc-400 bg-white px-2 py-1 dark:border-zinc-600 dark:bg-zinc-900"
          >
            <option value="current" disabled={!current || selected.current}>
              the current text
            </option>
            <option value="previous">the version before it</option>
          </select>
        </div>
        <fieldset className="flex gap-1 text-sm">
          <legend className="sr-only">Diff layout</legend>
          {(["inline", "side"] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              onClick={() => onMode(m)}
              className={`rounded-md border px-3 py-1.5 ${
                mode === m
                  ? "border-blue-700 bg-blue-700 text-white dark:border-blue-400 dark:bg-blue-500 dark:text-zinc-950"
                  : "border-zinc-300 bg-white hover:bg-zinc-100 dark:border-zinc-600 dark:bg-zinc-900 dark:hover:bg-zinc-800"
              }`}
            >
              {m === "inline" ? "Inline" : "Side by side"}
            </button>
          ))}
        </fieldset>
      </div>
      <p className="text-sm">
        From <strong>{oldLabel}</strong> to <strong>{newLabel}</strong>.
      </p>
      {[oldEntry, newEntry].map((e) =>
        e?.problem ? (
          <p key={e.key} className="text-sm text-red-800 dark:text-red-300">
            {`${entryLabel(e)} had a problem, so its whole file is compared: ${e.problem}`}
          </p>
        ) : null,
      )}
      <DiffView diff={diff} mode={mode} oldLabel={oldLabel} newLabel={newLabel} />
    </section>
  );
}
