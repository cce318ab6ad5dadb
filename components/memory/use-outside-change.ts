"use client";

import { useCallback, useEffect, useState } from "react";
import type { MemoryDetail } from "@/lib/types";
import { type Loaded, loadedOf } from "./use-memory-draft";

/**
 * The file states this tab's own writes left (their sha256), kept across editor instances: an Undo in a toast
 * can bring back a memory after its editor was left (a delete, then Undo), and the editor that opens on it
 * must not take that state for an outside change.
 */
export const ownStates = new Set<string>();

/**
 * What the memory on disk (polled every 2 s) does to the editor: loaded when
 * the draft holds nothing unsaved, held as an outside change waiting for a
 * decision when it does, `gone` when the file is no more. Our own writes are
 * recognised by their sha256 (`ownStates`), so only other writers' changes
 * count as outside changes. `adopt` takes a memory in and clears any waiting
 * outside change.
 */
export function useOutsideChange(
  fromDisk: MemoryDetail | null | undefined,
  draft: { loaded: Loaded | null; dirty: boolean; load: (m: Loaded, keepDraft?: boolean) => void },
) {
  const [outside, setOutside] = useState<Loaded | null>(null);
  const [gone, setGone] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const { loaded, dirty, load } = draft;

  const adopt = useCallback(
    (m: Loaded, keepDraft = false) => {
      load(m, keepDraft);
      setOutside(null);
    },
    [load],
  );

  // Runs when new data arrives from disk; `dirty` and `loaded` are read as they are at that moment.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only new data from disk is an event here
  useEffect(() => {
    const d = fromDisk;
    if (d === undefined) return;
    if (d === null) {
      setGone(true);
      return;
    }
    setGone(false);
    if (!loaded) return adopt(loadedOf(d));
    if (d.sha256 === loaded.sha256) return;
    if (ownStates.has(d.sha256)) return adopt(loadedOf(d), true);
    if (!dirty) {
      adopt(loadedOf(d));
      setNote("This memory was changed outside the editor; its new text is loaded.");
    } else setOutside(loadedOf(d));
  }, [fromDisk]);

  return { outside, gone, note, setNote, adopt };
}
