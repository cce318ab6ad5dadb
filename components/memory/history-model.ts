import type { DiffSide } from "@/lib/diff/memory-diff";
import { SOURCE_WORDS } from "@/lib/memory/format";
import type { MemoryDetail, VersionInfo, VersionSource } from "@/lib/types";

/** One state of a memory in its history: the current one, or a saved version. */
export interface HistoryEntry {
  /** "current" or the version's name. */
  key: string;
  current: boolean;
  source: VersionSource;
  words: string;
  /** ISO moment the state was saved. */
  moment: string;
  /** The exact name: the version's file name, or the current state's ISO moment in UTC. */
  exact: string;
  side: DiffSide;
  problem: string | null;
}

/** The current state (when the memory is not deleted) on top, then the versions newest first. */
export function historyEntries(current: MemoryDetail | null, versions: VersionInfo[]): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  if (current) {
    out.push({
      key: "current",
      current: true,
      source: current.state.source,
      words: SOURCE_WORDS[current.state.source],
      moment: current.state.savedAt,
      exact: current.state.savedAt,
      side: current.ok
        ? { title: current.title, enabled: current.enabled, text: current.text }
        : { title: null, enabled: null, text: current.raw ?? "" },
      problem: current.ok ? null : current.problem.message,
    });
  }
  for (const v of versions) {
    out.push({
      key: v.name,
      current: false,
      source: v.source,
      words: SOURCE_WORDS[v.source],
      moment: v.moment,
      exact: v.name,
      side: v.ok
        ? { title: v.title ?? "", enabled: v.enabled ?? null, text: v.text ?? "" }
        : { title: null, enabled: null, text: v.raw ?? "" },
      problem: v.ok ? null : (v.problem ?? null),
    });
  }
  return out;
}

/**
 * How an entry is named in the diff's labels and choices: by when it was saved (`formatMoment` as the page
 * shows moments) and where it came from, not by its version file name, which the list shows beside it.
 */
export function entryLabel(e: HistoryEntry, moment: (iso: string) => string): string {
  return e.current ? "the current text" : `the version of ${moment(e.moment)} (${e.words})`;
}
