"use client";

import { diffLines, diffWordsWithSpace } from "diff";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * Shown when the memory changed on disk while the editor holds unsaved edits:
 * the outside text, a diff against the edits, and the two ways on.
 */
export function OutsideChangeNotice({
  outside,
  mine,
  busy,
  onKeepMine,
  onUseOutside,
}: {
  /** The file's title and text now (null: its file now has a problem, shown as `problem`). */
  outside: { title: string; text: string } | { problem: string };
  mine: { title: string; text: string };
  busy: boolean;
  onKeepMine: () => void;
  onUseOutside: () => void;
}) {
  const [mode, setMode] = useState<"lines" | "words">("lines");
  const theirs = "problem" in outside ? null : `${outside.title}\n\n${outside.text}`;
  const ours = `${mine.title}\n\n${mine.text}`;
  const parts = theirs === null ? [] : mode === "lines" ? diffLines(theirs, ours) : diffWordsWithSpace(theirs, ours);
  // Diff parts have no identity but their order and kind.
  const keyed = parts.map((p, n) => ({ p, k: `${n}${p.added ? "+" : p.removed ? "-" : "="}` }));
  return (
    <section
      role="alert"
      aria-labelledby="outside-heading"
      className="space-y-3 rounded-lg border border-amber-600 bg-amber-50 p-4 dark:border-amber-500 dark:bg-amber-950/40"
    >
      <h2 id="outside-heading" className="font-semibold">
        This memory was changed outside the editor
      </h2>
      {"problem" in outside ? (
        <p className="text-sm">Its file now has a problem: {outside.problem}</p>
      ) : (
        <>
          <div>
            <h3 className="text-sm font-medium">The outside version</h3>
            <pre className="mt-1 max-h-48 overflow-auto rounded border border-zinc-300 bg-white p-2 text-sm whitespace-pre-wrap dark:border-zinc-700 dark:bg-zinc-900">
              {theirs}
            </pre>
          </div>
          <div>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="text-sm font-medium">Your edits compared with it</h3>
              <label className="text-xs">
                Compare by{" "}
                <select
                  value={mode}
                  onChange={(e) => setMode(e.target.value as "lines" | "words")}
                  className="rounded border border-zinc-400 bg-white px-1 dark:border-zinc-600 dark:bg-zinc-900"
                >
                  <option value="lines">lines</option>
                  <option value="words">words</option>
                </select>
              </label>
            </div>
            <pre className="mt-1 max-h-64 overflow-auto rounded border border-zinc-300 bg-white p-2 text-sm whitespace-pre-wrap dark:border-zinc-700 dark:bg-zinc-900">
              {keyed.map(({ p, k }) =>
                p.added ? (
                  <ins
                    key={k}
                    className="bg-emerald-100 text-emerald-950 no-underline dark:bg-emerald-900 dark:text-emerald-50"
                  >
                    <span className="sr-only">[yours: </span>
                    {p.value}
                    <span className="sr-only">]</span>
                  </ins>
                ) : p.removed ? (
                  <del key={k} className="bg-red-100 text-red-950 dark:bg-red-900 dark:text-red-50">
                    <span className="sr-only">[outside: </span>
                    {p.value}
                    <span className="sr-only">]</span>
                  </del>
                ) : (
                  <span key={k}>{p.value}</span>
                ),
              )}
            </pre>
            <p className="mt-1 text-xs">
              <del className="bg-red-100 px-1 text-red-950 dark:bg-red-900 dark:text-red-50">struck through</del>: only
              in the outside version;{" "}
              <ins className="bg-emerald-100 px-1 text-emerald-950 no-underline dark:bg-emerald-900 dark:text-emerald-50">
                highlighted
              </ins>
              : only in your edits.
            </p>
          </div>
        </>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" disabled={busy} onClick={onKeepMine}>
          Keep my edits
        </Button>
        <Button disabled={busy} onClick={onUseOutside}>
          Use the outside version
        </Button>
      </div>
      <p className="text-xs">
        Keeping your edits saves them over the file; the outside text is kept as a version you can restore from History.
      </p>
    </section>
  );
}
