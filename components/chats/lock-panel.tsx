"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { freeStaleLockAction } from "@/app/_actions/sessions";
import { unwrap } from "@/components/ui/action-error";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Time } from "@/components/ui/time";
import { useToast } from "@/components/ui/toast";
import { queryKeys } from "@/lib/query-keys";
import type { LockView } from "@/lib/types";
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
export function LockPanel({ id, generation, initial }: { id: string; generation: string; initial: LockView }) {
  const status = useQuery({ ...statusQuery(id, generation, false), enabled: false });
  const lock = status.data?.lock ?? initial;
  const [confirming, setConfirming] = useState(false);
  const [freed, setFreed] = useState(false);
  const qc = useQueryClient();
  const router = useRouter();
  const toast = useToast();
  const free = useMutation({
    mutationFn: (pid: number) => unwrap(freeStaleLockAction({ id, expectPid: pid })),
    onSuccess: () => {
      setFreed(true);
      toast({ message: `Chat freed: its session.lock was removed; nothing else was touched.`, tone: "success" });
      qc.invalidateQueries({ queryKey: queryKeys.sessions.all });
      router.refresh();
    },
    onError: (e) => toast({ message: e.message, tone: "error" }),
    onSettled: () => setConfirming(false),
  });

  if (lock.state === "live" || lock.state === "unknown") {
    return (
      <div role="status" className="rounded-md border-l-4 border-blue-700 bg-blue-50 p-3 text-sm dark:bg-blue-950">
        <p className="font-semibold">Oda is writing this chat: read-only</p>
        <p>
          Held by <Holder lock={lock} />. {lock.reason}
        </p>
      </div>
    );
  }
  if (lock.state === "stale" && !freed) {
    return (
      <div className="rounded-md border-l-4 border-amber-600 bg-amber-50 p-3 text-sm dark:bg-amber-950">
        <p className="font-semibold">Stale lock</p>
        <p>
          The session.lock names <Holder lock={lock} />. {lock.reason}
        </p>
        <Button variant="danger" className="mt-2" onClick={() => setConfirming(true)} disabled={free.isPending}>
          Free this chat
        </Button>
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
