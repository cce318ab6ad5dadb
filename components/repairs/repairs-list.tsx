"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSourceInput } from "@/components/shell/source";
import { unwrap } from "@/components/ui/action-error";
import { Badge } from "@/components/ui/badge";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Time } from "@/components/ui/time";
import { useToast } from "@/components/ui/toast";
import { WriteButton } from "@/components/ui/write-button";
import { undoRepairAction } from "@/server/actions/repairs";
import type { ReadData } from "@/server/reads";

type Overview = ReadData<"repairs.overview">;
type JournalRow = Overview["journals"][number];

function short(sha: string): string {
  return sha.slice(0, 12);
}

/** One repair made: what, when, every file's size and SHA-256 before and after, and Undo. */
function JournalItem({ journal, onUndo }: { journal: JournalRow; onUndo: (j: JournalRow) => void }) {
  const undoable = journal.phase === "done" && journal.kind !== "undo" && !journal.undoneBy;
  return (
    <li
      aria-label={`Repair ${journal.id}`}
      className="space-y-1 rounded-md border border-zinc-300 p-3 dark:border-zinc-700"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium">{journal.summary || `${journal.kind} of ${journal.subject}`}</p>
        <div className="flex items-center gap-2">
          <Badge tone={journal.phase === "done" ? "success" : "warning"}>
            {journal.undoneBy ? "undone" : journal.phase}
          </Badge>
          {undoable && (
            <WriteButton onClick={() => onUndo(journal)} aria-label={`Undo ${journal.summary}`}>
              Undo
            </WriteButton>
          )}
        </div>
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        <Time iso={journal.createdAt} /> · <span className="font-mono">{journal.id}</span>
      </p>
      <ul className="text-xs">
        {journal.files.map((f) => (
          <li key={f.path} className="break-all">
            <span className="font-mono">{f.path}</span>:{" "}
            {f.before ? `${f.before.size} bytes, sha256 ${short(f.before.sha256)}…` : "absent"} →{" "}
            {f.after ? `${f.after.size} bytes, sha256 ${short(f.after.sha256)}…` : "kept in the admin state"}
          </li>
        ))}
      </ul>
    </li>
  );
}

/** The repairs made, newest first, each with Undo behind a confirmation. */
export function RepairsList({ journals }: { journals: JournalRow[] }) {
  const withSource = useSourceInput();
  const [undoing, setUndoing] = useState<JournalRow | null>(null);
  const qc = useQueryClient();
  const toast = useToast();
  const undo = useMutation({
    mutationFn: (id: string) => unwrap(undoRepairAction(withSource({ id }))),
    onSuccess: () => {
      toast({ message: "Undone: every byte the repair changed is back.", tone: "success" });
      qc.invalidateQueries();
    },
    onError: (e) => toast({ message: e.message, tone: "error" }),
    onSettled: () => setUndoing(null),
  });
  if (!journals.length) return <p className="text-sm">No repair was made yet.</p>;
  return (
    <>
      <ul aria-label="Repairs made" className="space-y-3">
        {journals.map((j) => (
          <JournalItem key={j.id} journal={j} onUndo={setUndoing} />
        ))}
      </ul>
      <ConfirmDialog
        open={undoing !== null}
        title="Undo this repair?"
        confirmLabel={undo.isPending ? "Undoing…" : "Undo"}
        onCancel={() => setUndoing(null)}
        onConfirm={() => undoing && undo.mutate(undoing.id)}
      >
        <p>{undoing?.summary}</p>
        <p className="text-sm">
          Every file it replaced or moved is put back byte for byte, and the files it created are kept in the admin
          state. It is refused if a file changed since.
        </p>
      </ConfirmDialog>
    </>
  );
}
