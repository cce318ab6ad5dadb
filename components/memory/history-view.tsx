"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSourceInput, useSourcePathname, useSourceRouter } from "@/components/shell/source";
import { unwrap } from "@/components/ui/action-error";
import { Alert } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Link } from "@/components/ui/link";
import { PageHeader } from "@/components/ui/page-header";
import { QueryState } from "@/components/ui/query-state";
import { Time } from "@/components/ui/time";
import { useToast } from "@/components/ui/toast";
import { noMemoryInSet } from "@/lib/memory/admin-words";
import { MESSAGES } from "@/lib/memory/messages";
import { queryKeys } from "@/lib/query-keys";
import { memoryHref, setHref } from "@/lib/routes";
import type { ChangeResult } from "@/lib/types";
import { restoreVersionAction, undoChatChangeAction } from "@/server/actions/memory";
import { type CompareWith, HistoryCompare } from "./history-compare";
import { HistoryList } from "./history-list";
import { type HistoryEntry, historyEntries } from "./history-model";
import { setName } from "./names";
import { memoryQueries } from "./queries";
import { useUndoToast } from "./use-undo-toast";

/** Which memory's history, and the version and comparison the address asks for. */
export interface HistoryProps {
  workspace: string | null;
  id: string;
  initialVersion: string | null;
  /** What the version is compared with (`?compare=`): `current`, `previous` or another version's name. */
  initialCompare?: string | null;
}

/** The history page of one memory (live or deleted): its states, a diff, restore and undo. */
export function HistoryView({ workspace, id, initialVersion, initialCompare = null }: HistoryProps) {
  const withSource = useSourceInput();
  const router = useSourceRouter();
  const pathname = useSourcePathname();
  const client = useQueryClient();
  const toast = useToast();
  const [selected, setSelected] = useState<string | null>(initialVersion);
  const [compareWith, setCompareWith] = useState<CompareWith>(
    initialCompare ?? (initialVersion ? "current" : "previous"),
  );
  const [mode, setMode] = useState<"inline" | "side">("inline");
  const [restoring, setRestoring] = useState<HistoryEntry | null>(null);
  const [undoing, setUndoing] = useState(false);

  const query = useQuery(memoryQueries.history(workspace, id));
  const data = query.data;
  const entries = data ? historyEntries(data.current, data.versions) : [];
  const selectedKey = selected ?? entries[0]?.key ?? null;
  const selectedEntry = entries.find((e) => e.key === selectedKey) ?? null;
  const missing = data && selectedKey !== null && selectedKey !== "current" && !selectedEntry ? selectedKey : null;

  // The pair shown is in the URL, so any comparison can be linked to and comes back with Back.
  const showPair = (key: string, compare: CompareWith) => {
    const q = new URLSearchParams();
    if (key !== "current") q.set("version", key);
    if (compare !== (key === "current" ? "previous" : "current")) q.set("compare", compare);
    const query = q.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };
  const select = (key: string) => {
    setSelected(key);
    showPair(key, compareWith);
  };
  const compare = (c: CompareWith) => {
    setCompareWith(c);
    showPair(selectedKey ?? "current", c);
  };
  const undoToast = useUndoToast(workspace, id, () => {
    void client.invalidateQueries({ queryKey: queryKeys.memory.all });
  });

  const onDone = (r: ChangeResult, done: string) => {
    void client.invalidateQueries({ queryKey: queryKeys.memory.all });
    toast({ message: r.changed ? done : (r.message ?? done), tone: r.changed ? "success" : "info" });
  };
  const restore = useMutation({
    mutationFn: (version: string) =>
      unwrap(restoreVersionAction(withSource({ workspace, id, version, expectedSha256: data?.current?.sha256 }))),
    onSuccess: (r, version) => {
      void client.invalidateQueries({ queryKey: queryKeys.memory.all });
      if (!r.changed) return toast({ message: r.message ?? "Nothing was restored.", tone: "info" });
      // The same Undo as the editor's toasts: back to the state this restore kept as a version.
      undoToast.offer(
        `Restored version ${version}. The text it replaced is kept as a version, so this can be undone.`,
        r.keptVersion,
        r.memory?.sha256,
      );
    },
    onError: (e) => toast({ message: e.message, tone: "error" }),
  });
  const undo = useMutation({
    mutationFn: () =>
      unwrap(undoChatChangeAction(withSource({ workspace, id, expectedSha256: data?.current?.sha256 }))),
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
      <QueryState query={query} loading="Loading the history…" />
      {data && !data.current && !data.deleted && data.versions.length === 0 && (
        <Alert tone="error">
          {noMemoryInSet(id, workspace)} It has no file, no saved version and no deletion mark.
        </Alert>
      )}
      {data && !data.current && (data.deleted || data.versions.length > 0) && (
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
      {missing && <Alert tone="error">{MESSAGES.noVersion(missing)}</Alert>}
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
              onCompareWith={compare}
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
