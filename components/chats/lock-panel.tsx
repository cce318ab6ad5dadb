"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSourceInput, useSourceRouter } from "@/components/shell/source";
import { unwrap } from "@/components/ui/action-error";
import { Alert } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Time } from "@/components/ui/time";
import { useToast } from "@/components/ui/toast";
import { WriteButton } from "@/components/ui/write-button";
import { queryKeys } from "@/lib/query-keys";
import type { LockView } from "@/lib/types";
import { freeStaleLockAction } from "@/server/actions/sessions";
import { statusQuery } from "./log-data";

/** The seed's warning, quoted before anyone frees a chat. */
export const FREE_WARNING =
  "If a chat stays locked because the copy of Oda holding it cannot continue, removing that file frees the chat for the next writer; do this only when you are sure that copy will not write the chat again.";

function Holder({ lock }: { lock: LockView }) {
  return (
    <span>
      process {lock.pid ?? "?"} on {lock.host ?? "?"}, started <Time iso={lock.startedAt} />
    </span>
  );
}

/**
 * The chat's lock, kept current by the status poll. Live (or uncheckable): the
 * page is read-only. Stale: a Free this chat action behind a confirmation that
 * names the dead process and quotes the seed.
 */
export function LockPanel({
  id,
  generation,
  initial,
  bundle = null,
}: {
  id: string;
  generation: string;
  initial: LockView;
  /** Set while a support bundle is shown: the lock came with it from another computer. */
  bundle?: string | null;
}) {
  const withSource = useSourceInput();
  const status = useQuery({ ...statusQuery(id, generation, false), enabled: false });
  const lock = status.data?.lock ?? initial;
  const [confirming, setConfirming] = useState(false);
  const [freed, setFreed] = useState(false);
  const qc = useQueryClient();
  const router = useSourceRouter();
  const toast = useToast();
  const free = useMutation({
    mutationFn: (pid: number) => unwrap(freeStaleLockAction(withSource({ id, expectPid: pid }))),
    onSuccess: () => {
      setFreed(true);
      toast({ message: `Chat freed: its session.lock was removed; nothing else was touched.`, tone: "success" });
      qc.invalidateQueries({ queryKey: queryKeys.sessions.all });
      router.refresh();
    },
    onError: (e) => toast({ message: e.message, tone: "error" }),
    onSettled: () => setConfirming(false),
  });

  if (bundle !== null && lock.state !== "none") {
    // Judged on this computer, another computer's lock looks live or stale by accident: it is only a record.
    return (
      <div role="status" className="rounded-md border-l-4 border-zinc-500 bg-zinc-50 p-3 text-sm dark:bg-zinc-900">
        <p className="font-semibold">Lock file in the bundle</p>
        <p>
          When the bundle {bundle} was made, this chat&apos;s session.lock named <Holder lock={lock} />. Whether that
          process still runs is not known here, and nothing in a bundle can be freed.
        </p>
      </div>
    );
  }
  if (lock.state === "live" || lock.state === "unknown") {
    return (
      <Alert tone="info" title="Oda is writing this chat: read-only">
        <p>
          Held by <Holder lock={lock} />. {lock.reason}
        </p>
      </Alert>
    );
  }
  if (lock.state === "stale" && !freed) {
    return (
      <div className="rounded-md border-l-4 border-amber-600 bg-amber-50 p-3 text-sm dark:bg-amber-950">
        <p className="font-semibold">Stale lock</p>
        <p>
          The session.lock names <Holder lock={lock} />. {lock.reason}
        </p>
        <WriteButton variant="danger" className="mt-2" onClick={() => setConfirming(true)} disabled={free.isPending}>
          Free this chat
        </WriteButton>
        <ConfirmDialog
          open={confirming}
          title="Free this chat?"
          confirmLabel="Remove the lock"
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => lock.pid !== undefined && free.mutate(lock.pid)}
        >
          <p>
            This removes the chat&apos;s session.lock, left by <Holder lock={lock} />, which is no longer running. The
            log and the checkpoint are not touched.
          </p>
          <blockquote className="border-l-4 border-zinc-400 pl-3 italic">{FREE_WARNING}</blockquote>
        </ConfirmDialog>
      </div>
    );
  }
  return <p className="text-sm">Lock: none — no copy of Oda is writing this chat.</p>;
}
