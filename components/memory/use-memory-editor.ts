"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { useSourceInput, useSourceRouter } from "@/components/shell/source";
import { useUndoActions } from "@/components/shell/undo-actions";
import { ActionError, unwrap } from "@/components/ui/action-error";
import { useToast } from "@/components/ui/toast";
import { type MemoryFields, normaliseText, normaliseTitle } from "@/lib/memory/format";
import { queryKeys } from "@/lib/query-keys";
import { memoryHref, setHref } from "@/lib/routes";
import type { MemoryDetail } from "@/lib/types";
import { changeMemoryAction, createMemoryAction, deleteMemoryAction } from "@/server/actions/memory";
import { withPageNumbers } from "./page-numbers";
import { memoryQueries } from "./queries";
import { draftKey, useStoredDraft } from "./use-stored-draft";
import { useUndoToast } from "./use-undo-toast";

/** The memory as the editor last loaded it from disk (its sha256 goes with every save). */
export type Loaded =
  | { ok: true; sha256: string; title: string; text: string; enabled: boolean; fields: MemoryFields }
  | { ok: false; sha256: string; problem: string };

export interface EditorErrors {
  title?: string;
  text?: string;
  form?: string;
}

/** The memory an Undo acts on, as it was when its toast was made. */
type MemoryRef = { workspace: string | null; id: string };

/**
 * The file states this tab's own writes left (their sha256), kept across editor instances: an Undo in a toast
 * can bring back a memory after its editor was left (a delete, then Undo), and the editor that opens on it
 * must not take that state for an outside change.
 */
const ownStates = new Set<string>();

function loadedOf(m: MemoryDetail): Loaded {
  return m.ok
    ? { ok: true, sha256: m.sha256, title: m.title, text: m.text, enabled: m.enabled, fields: m.fields }
    : { ok: false, sha256: m.sha256, problem: m.problem.message };
}

/**
 * The editor's state: the draft, the memory as last loaded (polled every 2 s),
 * an outside change waiting for a decision, and the save/toggle/delete/undo
 * mutations. Our own writes are recognised by their sha256, so only other
 * writers' changes count as outside changes.
 */
export function useMemoryEditor(workspace: string | null, id: string | null) {
  const withSource = useSourceInput();
  const client = useQueryClient();
  const toast = useToast();
  const router = useSourceRouter();
  const undoActions = useUndoActions();
  const oneKey = queryKeys.memory.one(workspace, id ?? "new");
  const context = useQuery(memoryQueries.editorContext(workspace, id));
  // A new memory ("new" in its key) has nothing on disk to read yet.
  const memory = useQuery({ ...memoryQueries.one(workspace, id ?? "new"), enabled: id !== null });
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  // On/off is part of the draft: nothing is written before Save.
  const [draft, setDraft] = useState({ title: "", text: "", enabled: true });
  const [outside, setOutside] = useState<Loaded | null>(null);
  const [gone, setGone] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [errors, setErrors] = useState<EditorErrors>({});

  const dirty =
    id === null
      ? draft.title.trim() !== "" || draft.text.trim() !== ""
      : loaded?.ok === true &&
        (normaliseTitle(draft.title) !== loaded.title ||
          normaliseText(draft.text) !== loaded.text ||
          draft.enabled !== loaded.enabled);
  const stored = useStoredDraft(draftKey(workspace, id), id === null || loaded?.ok === true, dirty, draft);

  const adopt = useCallback((m: Loaded, keepDraft = false) => {
    setLoaded(m);
    setOutside(null);
    if (m.ok && !keepDraft) setDraft({ title: m.title, text: m.text, enabled: m.enabled });
  }, []);

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

  // Runs when new data arrives from disk; `dirty` and `loaded` are read as they are at that moment.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only new data from disk is an event here
  useEffect(() => {
    const d = memory.data;
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
  }, [memory.data]);

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

  return {
    context,
    memory,
    loaded,
    draft,
    setDraft,
    dirty,
    enabled: draft.enabled,
    setEnabled: (on: boolean) => setDraft((d) => ({ ...d, enabled: on })),
    stored,
    restoreDraft: () => {
      const d = stored.take();
      if (d) setDraft({ title: d.title, text: d.text, enabled: d.enabled });
    },
    outside,
    keepMine: () => outside && save.mutate(outside.sha256),
    useOutside: () => {
      if (outside) adopt(outside);
      setErrors({});
    },
    gone,
    note,
    errors,
    save,
    remove,
  };
}
