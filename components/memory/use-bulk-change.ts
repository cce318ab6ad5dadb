"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useSourceInput } from "@/components/shell/source";
import { useUndoActions } from "@/components/shell/undo-actions";
import { unwrap } from "@/components/ui/action-error";
import { useToast } from "@/components/ui/toast";
import { queryKeys } from "@/lib/query-keys";
import type { BulkAction, BulkResult, BulkTarget } from "@/lib/types";
import { bulkChangeAction } from "@/server/actions/memory";

const DONE: Record<BulkAction["kind"] | "undo", string> = {
  on: "Turned on",
  off: "Turned off",
  delete: "Deleted",
  restore: "Restored",
  move: "Moved",
  undo: "Put back",
};

const memories = (n: number) => `${n} ${n === 1 ? "memory" : "memories"}`;

function sentence(kind: keyof typeof DONE, r: BulkResult): string {
  const skipped = r.unchanged.length ? ` ${r.unchanged.length} left as they were.` : "";
  return `${DONE[kind]} ${memories(r.changed.length)}.${skipped}`;
}

/**
 * A bulk change with the toast every bulk change gives: what it did, with one
 * Undo that puts every memory back (itself undoable); a refusal's every
 * reason in an error toast.
 */
export function useBulkChange(onDone?: () => void) {
  const withSource = useSourceInput();
  const client = useQueryClient();
  const toast = useToast();
  const { undoBulk } = useUndoActions();
  const offer = (kind: keyof typeof DONE, r: BulkResult, message = sentence(kind, r)) =>
    toast({
      tone: "success",
      message,
      action: r.bulkId
        ? { label: "Undo", run: () => undo.mutate({ bulkId: r.bulkId as string, moved: kind === "move" ? r : null }) }
        : undefined,
    });
  const undo = useMutation({
    mutationFn: (v: { bulkId: string; moved: BulkResult | null }) => unwrap(undoBulk(withSource({ bulkId: v.bulkId }))),
    // Undoing a move changes each memory in both sets: the toast counts the memories moved, not the places.
    onSuccess: (r, v) => offer("undo", r, v.moved ? `Moved back ${memories(v.moved.changed.length)}.` : undefined),
    onError: (e: Error) => toast({ tone: "error", message: e.message }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.memory.all }),
  });
  const change = useMutation({
    mutationFn: (v: { targets: BulkTarget[]; action: BulkAction }) => unwrap(bulkChangeAction(withSource(v))),
    onSuccess: (r, v) => {
      offer(v.action.kind, r);
      onDone?.();
    },
    onError: (e: Error) => toast({ tone: "error", message: e.message }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.memory.all }),
  });
  return change;
}
