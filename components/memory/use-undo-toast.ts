"use client";

import { useMutation } from "@tanstack/react-query";
import { useSourceInput } from "@/components/shell/source";
import { useUndoActions } from "@/components/shell/undo-actions";
import { unwrap } from "@/components/ui/action-error";
import { useToast } from "@/components/ui/toast";
import type { MemoryDetail } from "@/lib/types";

/**
 * The Undo every change of a memory offers (editor saves, restores from the
 * History page): it restores the version the change kept, checked against the
 * file the change left (its sha256), and that restore offers its own Undo.
 * `onRestored` takes in the state an Undo leaves on disk.
 */
export function useUndoToast(workspace: string | null, id: string | null, onRestored: (m: MemoryDetail) => void) {
  const withSource = useSourceInput();
  const toast = useToast();
  const { restoreVersion } = useUndoActions();

  // Callbacks sit on the mutation, not on `mutate`, so they still run when the toast outlives the page.
  const restore = useMutation({
    mutationFn: (v: { workspace: string | null; id: string; version: string; sha256: string }) =>
      unwrap(
        restoreVersion(withSource({ workspace: v.workspace, id: v.id, version: v.version, expectedSha256: v.sha256 })),
      ),
    onSuccess: (r) => {
      if (r.memory) onRestored(r.memory);
      const after = r.memory;
      const kept = r.keptVersion;
      toast({
        tone: "success",
        message: r.changed ? "The previous text is back." : (r.message ?? "Nothing to undo."),
        action: r.changed && kept && after ? { label: "Undo", run: () => undo(kept, after.sha256) } : undefined,
      });
    },
    onError: (e: Error) => toast({ tone: "error", message: e.message }),
  });

  const undo = (version: string, sha256: string) => {
    if (id === null) return;
    restore.mutate({ workspace, id, version, sha256 }); // the memory this toast was made for
  };

  /** A success toast for a change that kept `kept` as a version and left the file with `sha256`. */
  const offer = (message: string, kept: string | null | undefined, sha256: string | null | undefined) =>
    toast({
      tone: "success",
      message,
      action: kept && sha256 ? { label: "Undo", run: () => undo(kept, sha256) } : undefined,
    });

  return { undo, offer };
}
