"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Time } from "@/components/ui/time";
import { WriteButton } from "@/components/ui/write-button";
import type { HistoryEntry } from "./history-model";

/** The states of a memory, the current one on top: moment, source in words, and what can be done with each. */
export function HistoryList({
  entries,
  selected,
  onSelect,
  onRestore,
  onUndo,
  busy,
}: {
  entries: HistoryEntry[];
  selected: string | null;
  onSelect: (key: string) => void;
  onRestore: (e: HistoryEntry) => void;
  onUndo: () => void;
  busy: boolean;
}) {
  return (
    <ol aria-label="Versions, newest first" className="space-y-2">
      {entries.map((e) => {
        const isSelected = e.key === selected;
        return (
          <li
            key={e.key}
            aria-current={isSelected ? "true" : undefined}
            aria-label={e.current ? "Current state" : `Version ${e.exact}`}
            className={`rounded-md border p-3 text-sm ${
              isSelected
                ? "border-blue-600 bg-blue-50 dark:border-blue-400 dark:bg-blue-950/50"
                : "border-zinc-300 dark:border-zinc-700"
            }`}
          >
            <div className="flex flex-wrap items-center gap-2">
              {e.current ? <Badge tone="info">Current</Badge> : null}
              <span className="font-medium">{e.words}</span>
              {e.problem !== null && <Badge tone="danger">problem</Badge>}
            </div>
            <p className="mt-1">
              <Time iso={e.moment} />
            </p>
            <p className="font-mono text-xs break-all text-zinc-700 dark:text-zinc-300">{e.exact}</p>
            <p className="mt-1 truncate text-zinc-800 dark:text-zinc-200">
              {e.side.title ?? e.problem ?? ""}
              {e.side.enabled === false ? " (off)" : ""}
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button
                variant={isSelected ? "primary" : "secondary"}
                aria-pressed={isSelected}
                onClick={() => onSelect(e.key)}
              >
                {/* the diff is beside the list on a wide window and under it on a narrow one: no "below" */}
                {isSelected ? "Changes shown" : "Show changes"}
                <span className="sr-only">{e.current ? " of the current state" : ` of version ${e.exact}`}</span>
              </Button>
              {!e.current && (
                <WriteButton disabled={busy} onClick={() => onRestore(e)}>
                  Restore<span className="sr-only"> version {e.exact}</span>
                </WriteButton>
              )}
              {e.current && e.source === "chat" && (
                <WriteButton disabled={busy} onClick={onUndo}>
                  Undo this chat change
                </WriteButton>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
