"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { readHistoryAction, restoreVersionAction, undoChatChangeAction } from "@/app/_actions/memory";
import { unwrap } from "@/components/ui/action-error";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { PageHeader } from "@/components/ui/page-header";
import { Time } from "@/components/ui/time";
import { useToast } from "@/components/ui/toast";
import { MESSAGES } from "@/lib/memory/messages";
import { queryKeys } from "@/lib/query-keys";
import { memoryHref, setHref } from "@/lib/routes";
import type { ChangeResult } from "@/lib/types";
import { type CompareWith, HistoryCompare } from "./history-compare";
import { HistoryList } from "./history-list";
import { type HistoryEntry, historyEntries } from "./history-model";
import { setName } from "./names";

/** The history page of one memory (live or deleted): its states, a diff, restore and undo. */
export function HistoryView({
  workspace,
  id,
  initialVersion,
}: {
  workspace: string | null;
  id: string;
  initialVersion: string | null;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const client = useQueryClient();
  const toast = useToast();
  const [selected, setSelected] = useState<string | null>(initialVersion);
  const [compareWith, setCompareWith] = useState<CompareWith>(initialVersion ? "current" : "previous");
  const [mode, setMode] = useState<"inline" | "side">("inline");
  const [restoring, setRestoring] = useState<HistoryEntry | null>(null);
  const [undoing, setUndoing] = useState(false);

  const query = useQuery({
    queryKey: queryKeys.memory.history(workspace, id),
    queryFn: () => unwrap(readHistoryAction({ workspace, id })),
    refetchInterval: 3_000,
  });
  const data = query.data;
  const entries = data ? historyEntries(data.current, data.versions) : [];
  const selectedKey = selected ?? entries[0]?.key ?? null;
  const selectedEntry = entries.find((e) => e.key === selectedKey) ?? null;
  const missing = data && selectedKey !== null && selectedKey !== "current" && !selectedEntry ? selectedKey : null;

  const select = (key: string) => {
    setSelected(key);
    router.replace(key === "current" ? pathname : `${pathname}?version=${encodeURIComponent(key)}`, { scroll: false });
  };

  const onDone = (r: ChangeResult, done: string) => {
    void client.invalidateQueries({ queryKey: queryKeys.memory.all });
    toast({ message: r.changed ? done : (r.message ?? done), tone: r.changed ? "success" : "info" });
  };
  const restore = useMutation({
    mutationFn: (version: string) =>
      unwrap(restoreVersionAction({ workspace, id, version, expectedSha256: data?.current?.sha256 })),
    onSuccess: (r, version) =>
      onDone(r, `Restored version ${version}. The text it replaced is kept as a version, so this can be undone.`),
    onError: (e) => toast({ message: e.message, tone: "error" }),
  });
  const undo = useMutation({
    mutationFn: () => unwrap(undoChatChangeAction({ workspace, id, expectedSha256: data?.current?.sha256 })),
    onSuccess: (r) =>
      onDone(
        r,
        r.memory === null
          ? "Undone: the chat had created this memory, so it is deleted now (see Recently deleted)."
          : "Undone: the text the chat replaced is back.",
      ),
    onError: (e) => toast({ message: e.message, tone: "error" }),
  });

  const title =
    data?.current?.ok === true ? data.current.title : (data?.deleted?.title ?? data?.versions[0]?.title ?? id);
  return (
    <div className="space-y-6">
      <PageHeader
        title={`History of “${title}”`}
        description={
          <>
            {setName(workspace)} memory <code className="font-mono">{id}</code>
            {data?.current ? (
              <>
                {" · "}
                <Link className="text-blue-700 underline dark:text-blue-300" href={memoryHref(workspace, id)}>
                  Edit this memory
                </Link>
              </>
            ) : null}
            {" · "}
            <Link className="text-blue-700 underline dark:text-blue-300" href={setHref(workspace)}>
              Back to the set
            </Link>
          </>
        }
      />
      {query.isPending && <p role="status">Loading the history…</p>}
      {query.isError && (
        <p role="alert" className="text-red-800 dark:text-red-300">
          {query.error.message}
        </p>
      )}
      {data && !data.current && (
        <p role="note" className="rounded-md border border-amber-500 bg-amber-50 p-3 text-sm dark:bg-amber-950">
          {data.deleted ? (
            <>
              This memory was deleted <Time iso={data.deleted.deletedAt} />. Restore a version to bring it back.
            </>
          ) : (
            "This memory has no file now. Restore a version to bring it back."
          )}
        </p>
      )}
      {data && entries.length === 0 && <p>No saved version of this memory exists yet.</p>}
      {missing && (
        <p role="alert" className="rounded-md border border-red-600 bg-red-50 p-3 text-sm dark:bg-red-950">
          {MESSAGES.noVersion(missing)}
        </p>
      )}
      {data && entries.length > 0 && (
        <div className="grid gap-6 lg:grid-cols-[20rem_1fr]">
          <HistoryList
            entries={entries}
            selected={selectedEntry?.key ?? null}
            onSelect={select}
            onRestore={setRestoring}
            onUndo={() => setUndoing(true)}
            busy={restore.isPending || undo.isPending}
          />
          {selectedEntry ? (
            <HistoryCompare
              entries={entries}
              selected={selectedEntry}
              compareWith={compareWith}
              onCompareWith={setCompareWith}
              mode={mode}
              onMode={setMode}
            />
          ) : (
            <p>Pick a version to see its changes.</p>
          )}
        </div>
      )}
      <ConfirmDialog
        open={restoring !== null}
        title="Restore this version?"
        confirmLabel="Restore"
        onCancel={() => setRestoring(null)}
        onConfirm={() => {
          if (restoring) restore.mutate(restoring.key);
          setRestoring(null);
        }}
      >
        <p>
          Version <code className="font-mono break-all">{restoring?.exact}</code> ({restoring?.words}) will become the
          memory&apos;s text. {data?.current ? "The current text is kept as a version, so you can undo this." : ""}
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={undoing}
        title="Undo the chat's change?"
        confirmLabel="Undo the change"
        onCancel={() => setUndoing(false)}
        onConfirm={() => {
          undo.mutate();
          setUndoing(false);
        }}
      >
        <p>
          The text this memory had before the chat changed it comes back. The chat&apos;s text is kept as a version.
        </p>
      </ConfirmDialog>
    </div>
  );
}
