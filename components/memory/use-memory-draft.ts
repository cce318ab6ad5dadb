"use client";

import { useCallback, useState } from "react";
import { type MemoryFields, normaliseText, normaliseTitle } from "@/lib/memory/format";
import type { MemoryDetail } from "@/lib/types";
import { draftKey, useStoredDraft } from "./use-stored-draft";

/** The memory as the editor last loaded it from disk (its sha256 goes with every save). */
export type Loaded =
  | { ok: true; sha256: string; title: string; text: string; enabled: boolean; fields: MemoryFields }
  | { ok: false; sha256: string; problem: string };

/** The editor's fields: on/off is part of the draft, so nothing is written before Save. */
export interface Draft {
  title: string;
  text: string;
  enabled: boolean;
}

/** A memory as read from disk, as the editor keeps it. */
export function loadedOf(m: MemoryDetail): Loaded {
  return m.ok
    ? { ok: true, sha256: m.sha256, title: m.title, text: m.text, enabled: m.enabled, fields: m.fields }
    : { ok: false, sha256: m.sha256, problem: m.problem.message };
}

/**
 * The draft and the memory it was loaded from: whether the draft differs
 * from it (`dirty`), the draft kept in the browser's storage meanwhile, and
 * `load`, which takes in a memory read from disk (the draft too, unless kept).
 */
export function useMemoryDraft(workspace: string | null, id: string | null) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [draft, setDraft] = useState<Draft>({ title: "", text: "", enabled: true });

  const dirty =
    id === null
      ? draft.title.trim() !== "" || draft.text.trim() !== ""
      : loaded?.ok === true &&
        (normaliseTitle(draft.title) !== loaded.title ||
          normaliseText(draft.text) !== loaded.text ||
          draft.enabled !== loaded.enabled);
  const stored = useStoredDraft(draftKey(workspace, id), id === null || loaded?.ok === true, dirty, draft);

  const load = useCallback((m: Loaded, keepDraft = false) => {
    setLoaded(m);
    if (m.ok && !keepDraft) setDraft({ title: m.title, text: m.text, enabled: m.enabled });
  }, []);

  return {
    loaded,
    draft,
    setDraft,
    dirty,
    stored,
    load,
    setEnabled: (on: boolean) => setDraft((d) => ({ ...d, enabled: on })),
    restoreDraft: () => {
      const d = stored.take();
      if (d) setDraft({ title: d.title, text: d.text, enabled: d.enabled });
    },
  };
}
