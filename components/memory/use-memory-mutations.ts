"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useSourceInput, useSourceRouter } from "@/components/shell/source";
import { useUndoActions } from "@/components/shell/undo-actions";
import { ActionError, unwrap } from "@/components/ui/action-error";
import { useToast } from "@/components/ui/toast";
import { queryKeys } from "@/lib/query-keys";
import { memoryHref, setHref } from "@/lib/routes";
import type { MemoryDetail } from "@/lib/types";
import { changeMemoryAction, createMemoryAction, deleteMemoryAction } from "@/server/actions/memory";
import { withPageNumbers } from "./page-numbers";
import { type Draft, type Loaded, loadedOf } from "./use-memory-draft";
import { ownStates } from "./use-outside-change";
import { useUndoToast } from "./use-undo-toast";

export interface EditorErrors {
  title?: string;
  text?: string;
  form?: string;
}

/** The memory an Undo acts on, as it was when its toast was made. */
type MemoryRef = { workspace: string | null; id: string };

/** What the mutations read of the editor, and how they hand it what they wrote. */
export interface MutationInputs {
  draft: Draft;
  loaded: Loaded | null;
  /** The draft kept in the browser's storage (cleared once a new memory is saved). */
  stored: { clear: () => void };
  /** Takes in a memory (see `useOutsideChange`). */
  adopt: (m: Loaded, keepDraft?: boolean) => void;
  setNote: (note: string | null) => void;
}

/**
 * The editor's writes: save (create or change), delete, and the Undo of a
 * creation and of a deletion, with the errors they leave under the fields or
 * the form. A state this tab wrote is noted in `ownStates`, so that the
 * editor does not take it for an outside change.
 */
export function useMemoryMutations(workspace: string | null, id: string | null, editor: MutationInputs) {
  const withSource = useSourceInput();
  const client = useQueryClient();
  const toast = useToast();
  const router = useSourceRouter();
  const undoActions = useUndoActions();
  const oneKey = queryKeys.memory.one(workspace, id ?? "new");
  const [errors, setErrors] = useState<EditorErrors>({});
  const { draft, loaded, stored, adopt, setNote } = editor;

  /** Takes in the state one of our own writes left on disk. */
  const applyOwn = useCallback(
    (m: MemoryDetail, keepDraft = false) => {
      ownStates.add(m.sha256);
      client.setQueryData(oneKey, m);
      adopt(loadedOf(m), keepDraft);
      void client.invalidateQueries({ queryKey: queryKeys.memory.all, refetchType: "active" });
    },
    [adopt, client, oneKey],
  );

  const showError = (e: Error) => {
    const f = e instanceof ActionError ? e.fieldErrors : {};
    const shown = (m: string | undefined) => (m === undefined ? undefined : withPageNumbers(m));
    if (f.title || f.text) setErrors({ title: shown(f.title), text: shown(f.text) });
    else setErrors({ form: withPageNumbers(e.message) });
  };

  const undoToast = useUndoToast(workspace, id, (m) => applyOwn(m));

  const save = useMutation({
    mutationFn: async (expectedSha256: string | undefined) => {
      await client.cancelQueries({ queryKey: oneKey });
      if (id === null) return unwrap(createMemoryAction(withSource({ workspace, ...draft })));
      return unwrap(
        changeMemoryAction(
          withSource({ workspace, id, ...draft, expectedSha256: expectedSha256 ?? loaded?.sha256 ?? "" }),
        ),
      );
    },
    onMutate: () => {
      setErrors({});
      setNote(null);
    },
    onError: showError,
    onSuccess: (r) => {
      if (!r.memory) return;
      const saved = r.memory;
      if (id === null) {
        stored.clear();
        void client.invalidateQueries({ queryKey: queryKeys.memory.all });
        router.replace(memoryHref(workspace, saved.id));
        toast({
          tone: "success",
          message: "Memory saved.",
          action: { label: "Undo", run: () => undoCreate.mutate({ workspace, id: saved.id }) },
        });
        return;
      }
      applyOwn(saved);
      if (!r.changed) {
        setNote(r.message ?? null);
        return;
      }
      undoToast.offer("Memory saved.", r.keptVersion, saved.sha256);
    },
  });

  // The Undo of a creation and of a deletion: callbacks sit on the mutations, so they still run after the page changed.
  const undoCreate = useMutation({
    mutationFn: (m: MemoryRef) => unwrap(undoActions.deleteMemory(withSource(m))),
    onError: (e: Error) => toast({ tone: "error", message: e.message }),
    onSuccess: (_, m) => {
      void client.invalidateQueries({ queryKey: queryKeys.memory.all });
      router.push(setHref(m.workspace));
      toast({ tone: "success", message: "The new memory is removed; it waits under Recently deleted." });
    },
  });

  const undoRemove = useMutation({
    mutationFn: (m: MemoryRef) => unwrap(undoActions.restoreDeleted(withSource(m))),
    onError: (e: Error) => toast({ tone: "error", message: e.message }),
    onSuccess: (r, m) => {
      // The editor that opens next starts from the restored file, which this tab wrote: not an outside change.
      if (r.memory) {
        ownStates.add(r.memory.sha256);
        client.setQueryData(queryKeys.memory.one(m.workspace, m.id), r.memory);
      }
      void client.invalidateQueries({ queryKey: queryKeys.memory.all });
      router.push(memoryHref(m.workspace, m.id));
    },
  });

  const remove = useMutation({
    mutationFn: () => unwrap(deleteMemoryAction(withSource({ workspace, id }))),
    onError: (e: Error) => toast({ tone: "error", message: e.message }),
    onSuccess: () => {
      const doneId = id as string;
      void client.invalidateQueries({ queryKey: queryKeys.memory.all });
      router.push(setHref(workspace));
      toast({
        tone: "success",
        message: "Memory deleted; it waits under Recently deleted.",
        action: { label: "Undo", run: () => undoRemove.mutate({ workspace, id: doneId }) },
      });
    },
  });

  return { errors, setErrors, save, remove };
}
