"use client";

import { useId, useMemo } from "react";
import { useMomentFormat } from "@/components/ui/time";
import { diffMemory } from "@/lib/diff/memory-diff";
import { DiffView } from "./diff-view";
import { entryLabel, type HistoryEntry } from "./history-model";

/** What the selected state is compared with: the current text, the state before it, or any other state by key. */
export type CompareWith = string;

/**
 * The two states to diff, older first: the selected one and the one it is
 * compared with (`current`, `previous` or another entry's key, as VS Code's
 * timeline compares any two). `older` is null when the selected state is the
 * oldest and is compared with the one before it.
 */
export function comparePair(
  entries: HistoryEntry[],
  selected: HistoryEntry,
  compareWith: CompareWith,
): { against: string; older: HistoryEntry | null; newer: HistoryEntry } {
  const index = entries.indexOf(selected);
  const current = entries.find((e) => e.current) ?? null;
  const other =
    compareWith === "current" || compareWith === "previous"
      ? null
      : (entries.find((e) => e.key === compareWith && e !== selected) ?? null);
  if (other) {
    return entries.indexOf(other) > index
      ? { against: other.key, older: other, newer: selected }
      : { against: other.key, older: selected, newer: other };
  }
  if (compareWith === "current" && current && !selected.current)
    return { against: "current", older: selected, newer: current };
  return { against: "previous", older: entries[index + 1] ?? null, newer: selected };
}

/** The diff of the selected state against another (any of them), inline or side by side. */
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
  const { against, older, newer } = comparePair(entries, selected, compareWith);
  const diff = useMemo(() => (older ? diffMemory(older.side, newer.side) : null), [older, newer]);
  const moment = useMomentFormat();
  const oldLabel = older ? entryLabel(older, moment) : "";
  const newLabel = entryLabel(newer, moment);
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
            onChange={(e) => onCompareWith(e.target.value)}
            className="max-w-full rounded border border-zinc-400 bg-white px-2 py-1 dark:border-zinc-600 dark:bg-zinc-900"
          >
            <option value="current" disabled={!current || selected.current}>
              the current text
            </option>
            <option value="previous">the version before it</option>
            {entries
              .filter((e) => !e.current && e !== selected)
              .map((e) => (
                <option key={e.key} value={e.key}>
                  {entryLabel(e, moment)}
                </option>
              ))}
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
      {older && diff ? (
        <>
          <p className="text-sm">
            From <strong>{oldLabel}</strong> to <strong>{newLabel}</strong>.
          </p>
          {[older, newer].map((e) =>
            e.problem ? (
              <p key={e.key} className="text-sm text-red-800 dark:text-red-300">
                {`${entryLabel(e, moment)} had a problem, so its whole file is compared: ${e.problem}`}
              </p>
            ) : null,
          )}
          <DiffView diff={diff} mode={mode} oldLabel={oldLabel} newLabel={newLabel} />
        </>
      ) : (
        <p role="note" className="text-sm">
          There is no earlier version: {newLabel === "the current text" ? "the current text" : "this version"} is the
          oldest state of this memory kept. Compare it with another one above.
        </p>
      )}
    </section>
  );
}
