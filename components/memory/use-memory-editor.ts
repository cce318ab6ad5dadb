"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import {
  changeMemoryAction,
  createMemoryAction,
  deleteMemoryAction,
  getEditorContextAction,
  getMemoryAction,
  restoreDeletedAction,
  restoreVersionAction,
  setEnabledAction,
} from "@/app/_actions/memory";
import { ActionError, unwrap } from "@/components/ui/action-error";
import { useToast } from "@/components/ui/toast";
import { type MemoryFields, normaliseText, normaliseTitle } from "@/lib/memory/format";
import { queryKeys } from "@/lib/query-keys";
import { memoryHref, setHref } from "@/lib/routes";
import type { MemoryDetail } from "@/lib/types";

/** The memory as the editor last loaded it from disk (its sha256 goes with every save). */
export type Loaded =
  | { ok: true; sha256: string; title: string; text: string; enabled: boolean; fields: MemoryFields }
  | { ok: false; sha256: string; problem: string };

export interface EditorErrors {
  title?: string;
  text?: string;
  form?: string;
}

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
  const client = useQueryClient();
  const toast = useToast();
  const router = useRouter();
  const oneKey = queryKeys.memory.one(workspace, id ?? "new");
  const context = useQuery({
    queryKey: queryKeys.memory.editorContext(workspace, id),
    queryFn: () => unwrap(getEditorContextAction({ workspace, id })),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const memory = useQuery({
    queryKey: oneKey,
    queryFn: () => unwrap(getMemoryAction({ workspace, id })),
    enabled: id !== null,
    refetchInterval: 2_000,
  });
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [draft, setDraft] = useState({ title: "", text: "" });
  const [enabledNew, setEnabledNew] = useState(true);
  const [outside, setOutside] = useState<Loaded | null>(null);
  const [gone, setGone] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [errors, setErrors] = useState<EditorErrors>({});
  const ours = useRef(new Set<string>());

  const dirty =
    loaded?.ok === true && (normaliseTitle(draft.title) !== loaded.title || normaliseText(draft.text) !== loaded.text);

  const adopt = useCallback((m: Loaded, keepDraft = false) => {
    setLoaded(m);
    setOutside(null);
    if (m.ok && !keepDraft) setDraft({ title: m.title, text: m.text });
  }, []);

  /** Takes in the state one of our own writes left on disk. */
  const applyOwn = useCallback(
    (m: MemoryDetail, keepDraft = false) => {
      ours.current.add(m.sha256);
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
    if (ours.current.has(d.sha256)) return adopt(loadedOf(d), true);
    if (!dirty) {
      adopt(loadedOf(d));
      setNote("This memory was changed outside the editor; its new text is loaded.");
    } else setOutside(loadedOf(d));
  }, [memory.data]);

  const showError = (e: Error) => {
    const f = e instanceof ActionError ? e.fieldErrors : {};
    if (f.title || f.text) setErrors({ title: f.title, text: f.text });
    else setErrors({ form: e.message });
  };

  const undoRestore = (version: string, sha256: string) => {
    if (id === null) return;
    unwrap(restoreVersionAction({ workspace, id, version, expectedSha256: sha256 })).then(
      (r) => {
        if (r.memory) applyOwn(r.memory);
        toast({
          tone: "success",
          message: r.changed ? "The previous text is back." : (r.message ?? "Nothing to undo."),
          action:
            r.changed && r.keptVersion && r.memory
              ? { label: "Undo", run: () => undoRestore(r.keptVersion as string, (r.memory as MemoryDetail).sha256) }
              : undefined,
        });
      },
      (e: Error) => toast({ tone: "error", message: e.message }),
    );
  };

  const save = useMutation({
    mutationFn: async (expectedSha256: string | undefined) => {
      await client.cancelQueries({ queryKey: oneKey });
      if (id === null) return unwrap(createMemoryAction({ workspace, ...draft, enabled: enabledNew }));
      return unwrap(
        changeMemoryAction({ workspace, id, ...draft, expectedSha256: expectedSha256 ?? loaded?.sha256 ?? "" }),
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
        void client.invalidateQueries({ queryKey: queryKeys.memory.all });
        router.replace(memoryHref(workspace, saved.id));
        toast({
          tone: "success",
          message: "Memory saved.",
          action: { label: "Undo", run: () => undoCreate(saved.id) },
        });
        return;
      }
      applyOwn(saved);
      if (!r.changed) {
        setNote(r.message ?? null);
        return;
      }
      const kept = r.keptVersion;
      toast({
        tone: "success",
        message: "Memory saved.",
        action: kept ? { label: "Undo", run: () => undoRestore(kept, saved.sha256) } : undefined,
      });
    },
  });

  const undoCreate = (newId: string) => {
    unwrap(deleteMemoryAction({ workspace, id: newId })).then(
      () => {
        void client.invalidateQueries({ queryKey: queryKeys.memory.all });
        router.push(setHref(workspace));
        toast({ tone: "success", message: "The new memory is removed; it waits under Recently deleted." });
      },
      (e: Error) => toast({ tone: "error", message: e.message }),
    );
  };

  const toggle = useMutation({
    mutationFn: (enabled: boolean) => {
      if (id === null) return Promise.resolve(null);
      return unwrap(setEnabledAction({ workspace, id, enabled, expectedSha256: loaded?.sha256 }));
    },
    onMutate: () => setErrors({}),
    onError: showError,
    onSuccess: (r) => {
      if (r?.memory) applyOwn(r.memory, true);
    },
  });

  const remove = useMutation({
    mutationFn: () => unwrap(deleteMemoryAction({ workspace, id })),
    onError: (e: Error) => toast({ tone: "error", message: e.message }),
    onSuccess: () => {
      const doneId = id as string;
      void client.invalidateQueries({ queryKey: queryKeys.memory.all });
      router.push(setHref(workspace));
      toast({
        tone: "success",
        message: "Memory deleted; it waits under Recently deleted.",
        action: {
          label: "Undo",
          run: () =>
            unwrap(restoreDeletedAction({ workspace, id: doneId })).then(
              () => {
                void client.invalidateQueries({ queryKey: queryKeys.memory.all });
                router.push(memoryHref(workspace, doneId));
              },
              (e: Error) => toast({ tone: "error", message: e.message }),
            ),
        },
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
    enabled: id === null ? enabledNew : loaded?.ok === true && loaded.enabled,
    setEnabled: (on: boolean) => (id === null ? setEnabledNew(on) : toggle.mutate(on)),
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
    toggle,
    remove,
  };
}
