"use client";

import { useQuery } from "@tanstack/react-query";
import { memoryQueries } from "./queries";
import { useMemoryDraft } from "./use-memory-draft";
import { useMemoryMutations } from "./use-memory-mutations";
import { useOutsideChange } from "./use-outside-change";

export type { Loaded } from "./use-memory-draft";
export type { EditorErrors } from "./use-memory-mutations";

/**
 * The editor's state, from three hooks: the draft and the memory it was
 * loaded from (`use-memory-draft.ts`), the memory on disk as polled every
 * 2 s and an outside change waiting for a decision (`use-outside-change.ts`),
 * and the save/delete/undo mutations (`use-memory-mutations.ts`).
 */
export function useMemoryEditor(workspace: string | null, id: string | null) {
  const context = useQuery(memoryQueries.editorContext(workspace, id));
  // A new memory ("new" in its key) has nothing on disk to read yet.
  const memory = useQuery({ ...memoryQueries.one(workspace, id ?? "new"), enabled: id !== null });
  const draft = useMemoryDraft(workspace, id);
  const disk = useOutsideChange(memory.data, draft);
  const { errors, setErrors, save, remove } = useMemoryMutations(workspace, id, {
    draft: draft.draft,
    loaded: draft.loaded,
    stored: draft.stored,
    adopt: disk.adopt,
    setNote: disk.setNote,
  });
  const { outside, adopt } = disk;

  return {
    context,
    memory,
    loaded: draft.loaded,
    draft: draft.draft,
    setDraft: draft.setDraft,
    dirty: draft.dirty,
    enabled: draft.draft.enabled,
    setEnabled: draft.setEnabled,
    stored: draft.stored,
    restoreDraft: draft.restoreDraft,
    outside,
    keepMine: () => outside && save.mutate(outside.sha256),
    useOutside: () => {
      if (outside) adopt(outside);
      setErrors({});
    },
    gone: disk.gone,
    note: disk.note,
    errors,
    save,
    remove,
  };
}
