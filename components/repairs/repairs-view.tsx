"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useSourceInput } from "@/components/shell/source";
import { unwrap } from "@/components/ui/action-error";
import { Progress } from "@/components/ui/progress";
import { QueryState } from "@/components/ui/query-state";
import { useToast } from "@/components/ui/toast";
import { WriteButton } from "@/components/ui/write-button";
import { queryKeys } from "@/lib/query-keys";
import type { Repairable, RepairTarget } from "@/lib/types";
import { startFormJobAction } from "@/server/actions/repairs";
import { DuplicateCompare } from "./duplicate-compare";
import { FixButton } from "./fix-button";
import { LockSetAside } from "./lock-set-aside";
import { repairsQueries } from "./queries";
import { RepairsList } from "./repairs-list";

function targetOf(r: Repairable): RepairTarget | null {
  if (r.kind === "form" || r.kind === "archive") return { kind: r.kind, chat: r.subject };
  if (r.kind === "memory") {
    const parts = r.id.slice("memory:".length).split("/");
    return { kind: "memory", workspace: parts[0] === "global" ? null : (parts[1] ?? null), memory: parts.at(-1) ?? "" };
  }
  return null;
}

const LABELS = { form: "Fix", archive: "Archive", memory: "Set aside", duplicate: "", lock: "" } as const;

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const id = `repairs-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The Repairs page: problems with a repair, the folder-form conversion, disk space, and the repairs made. */
export function RepairsView() {
  const withSource = useSourceInput();
  const qc = useQueryClient();
  const toast = useToast();
  const query = useQuery(repairsQueries.overview());
  const jobQuery = useQuery(repairsQueries.job());
  const start = useMutation({
    mutationFn: () => unwrap(startFormJobAction(withSource({}))),
    // Both reads: the job to poll it while it runs, the overview for what the conversion changed.
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.repairs.all }),
    onError: (e) => toast({ message: e.message, tone: "error" }),
  });
  useRefetchWhenJobEnds(jobQuery.data?.phase);
  if (!query.isSuccess) return <QueryState query={query} loading="Looking for problems with a repair…" />;
  const { repairable, space, journals, compress, resume } = query.data;
  // The polled job is newer than the overview's while a conversion runs.
  const job = jobQuery.data === undefined ? query.data.job : jobQuery.data;
  const wrongForm = repairable.filter((r) => r.kind === "form").length;
  const settled = job ? job.done.length + job.skipped.length + job.failed.length : 0;
  return (
    <div className="space-y-8">
      {resume && (resume.error || resume.outcomes.length > 0) && (
        <section aria-label="Repairs settled at start" role="status" className="space-y-1 text-sm">
          <p className="font-semibold">At its start, this dashboard settled the repairs a stop had interrupted:</p>
          {resume.error ? (
            <p>Resuming them failed: {resume.error}</p>
          ) : (
            <ul className="list-disc pl-5">
              {resume.outcomes.map((o) => (
                <li key={o.id}>
                  {o.subject}: {o.action}
                  {o.message ? ` (${o.message})` : ""}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <Section title="Problems with a repair">
        {repairable.length === 0 ? (
          <p className="text-sm">No problem has a repair to apply.</p>
        ) : (
          <ul aria-label="Problems with a repair" className="space-y-3">
            {repairable.map((r) => {
              const target = targetOf(r);
              return (
                <li
                  key={r.id}
                  aria-label={r.id}
                  className="space-y-2 rounded-md border border-zinc-300 p-3 dark:border-zinc-700"
                >
                  <p className="font-mono text-xs break-all">{r.id}</p>
                  <p className="text-sm break-words">{r.message}</p>
                  {target ? (
                    <FixButton
                      target={target}
                      label={LABELS[r.kind]}
                      name={`${LABELS[r.kind]} ${r.id}`}
                      title={`${LABELS[r.kind]}: ${r.subject}?`}
                    />
                  ) : r.kind === "lock" ? (
                    <LockSetAside id={r.id} />
                  ) : (
                    <DuplicateCompare chat={r.subject} />
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </Section>
      <Section title="Change the folder's form">
        <p className="text-sm">
          This log folder keeps {compress ? "zstd-compressed" : "plain"} logs (<code>sessions.compress</code> in Memory
          › Settings). {wrongForm} {wrongForm === 1 ? "chat is" : "chats are"} in the other form. Converting skips and
          lists chats a copy of Oda is writing; a stopped conversion continues at the next start.
        </p>
        <WriteButton
          onClick={() => start.mutate()}
          disabled={start.isPending || job?.phase === "running" || wrongForm === 0}
        >
          Convert every chat to the folder&apos;s form
        </WriteButton>
        {job && <Progress label="Converting chats" done={settled} total={job.todo.length} />}
        {job?.skipped.length ? (
          <ul aria-label="Chats skipped" className="text-sm">
            {job.skipped.map((s) => (
              <li key={s.chat}>
                {s.chat}: {s.reason}
              </li>
            ))}
          </ul>
        ) : null}
      </Section>
      <Section title="Disk space">
        <p className="text-sm">
          Older log generations take {space.olderGenerations.toLocaleString("en")} bytes in the log folder; files kept
          by repairs take {space.keptByRepairs.toLocaleString("en")} bytes in the admin state. Archive moves older
          generations into the admin state (archiving into a support bundle file is not available yet).
        </p>
      </Section>
      <Section title="Repairs made">
        <RepairsList journals={journals} />
      </Section>
    </div>
  );
}

/** Reads the overview again once a running conversion job ends: the chats it converted and its repairs changed. */
function useRefetchWhenJobEnds(phase: "running" | "done" | undefined) {
  const qc = useQueryClient();
  const previous = useRef(phase);
  useEffect(() => {
    if (previous.current === "running" && phase !== "running")
      void qc.invalidateQueries({ queryKey: queryKeys.repairs.overview() });
    previous.current = phase;
  }, [phase, qc]);
}
