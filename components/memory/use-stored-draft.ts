"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/** An editor draft kept in the browser's storage until it is saved or discarded. */
export interface StoredDraft {
  title: string;
  text: string;
  enabled: boolean;
  /** ISO moment of the last keystroke kept. */
  keptAt: string;
}

type Draft = Omit<StoredDraft, "keptAt">;

/** One storage key per memory (`new` for an unsaved one); a workspace key is never empty, so "" is the global set. */
export function draftKey(workspace: string | null, id: string | null): string {
  return `oda-admin.memory-draft.${workspace ?? ""}/${id ?? "new"}`;
}

function readStored(key: string): StoredDraft | null {
  try {
    const v = JSON.parse(window.localStorage.getItem(key) ?? "null");
    if (v && typeof v.title === "string" && typeof v.text === "string" && typeof v.enabled === "boolean") return v;
  } catch {
    // A draft that does not parse is as good as none.
  }
  return null;
}

const same = (a: Draft, b: Draft) => a.title === b.title && a.text === b.text && a.enabled === b.enabled;

/**
 * Keeps the editor's unsaved draft of one memory in localStorage, so a closed
 * tab or a followed link loses nothing, and offers it back when the editor
 * opens again. `ready`: the memory is loaded (`draft` is what it holds, or
 * the person's edits). While a draft is offered nothing is written over it.
 */
export function useStoredDraft(key: string, ready: boolean, dirty: boolean, draft: Draft) {
  const [offer, setOffer] = useState<StoredDraft | null>(null);
  const checked = useRef(false);
  const stopped = useRef(false);

  useEffect(() => {
    if (!ready || checked.current) return;
    checked.current = true;
    const stored = readStored(key);
    if (stored && !same(stored, draft)) setOffer(stored);
    else window.localStorage.removeItem(key);
  }, [ready, key, draft]);

  useEffect(() => {
    if (!checked.current || offer || stopped.current) return;
    if (dirty) window.localStorage.setItem(key, JSON.stringify({ ...draft, keptAt: new Date().toISOString() }));
    else window.localStorage.removeItem(key);
  }, [key, dirty, draft, offer]);

  /** Forgets the draft for good (after a save): nothing more is kept under this key. */
  const clear = useCallback(() => {
    stopped.current = true;
    window.localStorage.removeItem(key);
  }, [key]);

  return {
    offer,
    /** Takes the offered draft back; the caller puts it in the form. */
    take: () => {
      const d = offer;
      setOffer(null);
      return d;
    },
    discard: () => {
      window.localStorage.removeItem(key);
      setOffer(null);
    },
    clear,
  };
}
