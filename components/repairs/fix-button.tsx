"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSourceInput, useSourceRouter } from "@/components/shell/source";
import { useRead } from "@/components/shell/use-read";
import { unwrap } from "@/components/ui/action-error";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useToast } from "@/components/ui/toast";
import { WriteButton } from "@/components/ui/write-button";
import type { RepairPreview, RepairTarget } from "@/lib/types";
import { applyRepairAction } from "@/server/actions/repairs";

/** What a repair keeps, said in every confirmation. */
export const KEEP_NOTE =
  "Every file it replaces or moves is kept byte for byte in the admin state, and the repair can be undone from the Repairs page.";

/**
 * A repair action (Fix, Set aside, Archive): the preview first, listing exactly
 * which files will change, move or be created; the repair runs only after the
 * person confirms it.
 */
export function FixButton({
  target,
  label = "Fix",
  title,
  name,
}: {
  target: RepairTarget;
  label?: string;
  /** The dialog's title. */
  title: string;
  /** The accessible name of the button when the label alone is ambiguous in a list. */
  name?: string;
}) {
  const withSource = useSourceInput();
  const read = useRead();
  const [preview, setPreview] = useState<RepairPreview | null>(null);
  const qc = useQueryClient();
  const router = useSourceRouter();
  const toast = useToast();
  const plan = useMutation({
    mutationFn: () => read("repairs.preview", { target }),
    onSuccess: setPreview,
    onError: (e) => toast({ message: e.message, tone: "error" }),
  });
  const apply = useMutation({
    mutationFn: () => unwrap(applyRepairAction(withSource({ target }))),
    onSuccess: (done) => {
      toast({ message: `Repaired: ${done.summary}`, tone: "success" });
      qc.invalidateQueries();
      router.refresh();
    },
    onError: (e) => toast({ message: e.message, tone: "error" }),
    onSettled: () => setPreview(null),
  });
  return (
    <>
      <WriteButton aria-label={name} onClick={() => plan.mutate()} disabled={plan.isPending || apply.isPending}>
        {plan.isPending ? "Preparing…" : apply.isPending ? "Repairing…" : label}
      </WriteButton>
      <ConfirmDialog
        open={preview !== null}
        title={title}
        confirmLabel={apply.isPending ? "Repairing…" : "Repair"}
        onCancel={() => setPreview(null)}
        onConfirm={() => apply.mutate()}
      >
        <p>{preview?.summary}</p>
        <ul aria-label="Files this repair changes" className="space-y-1 text-sm">
          {preview?.changes.map((c) => (
            <li key={`${c.action}:${c.path}`} className="break-all">
              <span className="font-semibold">{c.action}</span>: <span className="font-mono text-xs">{c.path}</span>
              {c.bytes ? ` (${c.bytes.toLocaleString("en")} bytes)` : ""}
            </li>
          ))}
        </ul>
        <p className="text-sm">
          {target.kind === "memory"
            ? "The home's memory lock is held for the whole repair."
            : "The chat's session.lock is held for the whole repair, so a copy of Oda writing it refuses the repair."}{" "}
          {KEEP_NOTE}
        </p>
      </ConfirmDialog>
    </>
  );
}
