"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSourceInput, useSourceRouter } from "@/components/shell/source";
import { useRead } from "@/components/shell/use-read";
import { unwrap } from "@/components/ui/action-error";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useToast } from "@/components/ui/toast";
import { WriteButton } from "@/components/ui/write-button";
import type { HomeLockSetAside } from "@/lib/repair";
import { setAsideHomeLockAction } from "@/server/actions/repairs";

/**
 * Sets aside `<home>/memory-history/.lock` when it holds no live lock (`lock:memory-history`): the preview
 * says what is there, and it moves into the admin state only after the person confirms.
 */
export function LockSetAside({ id }: { id: string }) {
  const withSource = useSourceInput();
  const read = useRead();
  const [preview, setPreview] = useState<HomeLockSetAside | null>(null);
  const qc = useQueryClient();
  const router = useSourceRouter();
  const toast = useToast();
  const plan = useMutation({
    mutationFn: () => read("repairs.lock-preview", {}),
    onSuccess: setPreview,
    onError: (e) => toast({ message: e.message, tone: "error" }),
  });
  const apply = useMutation({
    mutationFn: () => unwrap(setAsideHomeLockAction(withSource({}))),
    onSuccess: (done) => {
      toast({ message: `Set aside ${done.path}; it is kept in ${done.keptIn}.`, tone: "success" });
      qc.invalidateQueries();
      router.refresh();
    },
    onError: (e) => toast({ message: e.message, tone: "error" }),
    onSettled: () => setPreview(null),
  });
  return (
    <>
      <WriteButton
        aria-label={`Set aside ${id}`}
        onClick={() => plan.mutate()}
        disabled={plan.isPending || apply.isPending}
      >
        {plan.isPending ? "Preparing…" : apply.isPending ? "Setting aside…" : "Set aside"}
      </WriteButton>
      <ConfirmDialog
        open={preview !== null}
        title="Set aside the memory lock?"
        confirmLabel={apply.isPending ? "Setting aside…" : "Set aside"}
        onCancel={() => setPreview(null)}
        onConfirm={() => apply.mutate()}
      >
        <p className="break-all">
          <span className="font-mono text-xs">{preview?.path}</span> is {preview?.what}.
        </p>
        <p className="text-sm">
          It moves into the admin state (<code>repairs/locks/</code>) with a note of what it was, and is never deleted.
          Memory changes work again once it is gone. A lock a running Oda Admin process holds is refused.
        </p>
      </ConfirmDialog>
    </>
  );
}
