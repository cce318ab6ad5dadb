"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSourceInput } from "@/components/shell/source";
import { useUndoActions } from "@/components/shell/undo-actions";
import { unwrap } from "@/components/ui/action-error";
import { Link } from "@/components/ui/link";
import { QueryState } from "@/components/ui/query-state";
import { Time } from "@/components/ui/time";
import { useToast } from "@/components/ui/toast";
import { WriteButton } from "@/components/ui/write-button";
import { queryKeys } from "@/lib/query-keys";
import { historyHref, memoryHref } from "@/lib/routes";
import { setName } from "./names";
import { memoryQueries } from "./queries";
import { useBulkChange } from "./use-bulk-change";

/** A deleted memory as its Restore (and the Undo of that) names it. */
type Restorable = { workspace: string | null; id: string; title: string };

/** Recently deleted: every deleted memory of every set, with its last text, a restore and its history. */
export function DeletedList() {
  const withSource = useSourceInput();
  const client = useQueryClient();
  const toast = useToast();
  const { deleteMemory, restoreDeleted } = useUndoActions();
  const query = useQuery(memoryQueries.deleted());
  // Callbacks sit on the mutations, not on `mutate`, so an Undo still works after the page changed.
  const restore = useMutation({
    mutationFn: (m: Restorable) => unwrap(restoreDeleted(withSource({ workspace: m.workspace, id: m.id }))),
    onSuccess: (r, m) => {
      void client.invalidateQueries({ queryKey: queryKeys.memory.all });
      toast(
        r.changed
          ? {
              message: `Restored “${m.title || m.id}” to ${setName(m.workspace).toLowerCase()} memory.`,
              tone: "success",
              action: { label: "Undo", run: () => deleteAgain.mutate(m) },
            }
          : { message: r.message ?? "", tone: "success" },
      );
    },
    onError: (e) => toast({ message: e.message, tone: "error" }),
  });
  // The Undo of a restore: the memory goes back under Recently deleted, and that too can be undone.
  const deleteAgain = useMutation({
    mutationFn: (m: Restorable) => unwrap(deleteMemory(withSource({ workspace: m.workspace, id: m.id }))),
    onSuccess: (_, m) => {
      void client.invalidateQueries({ queryKey: queryKeys.memory.all });
      restore.reset();
      toast({
        message: `“${m.title || m.id}” is deleted again; it waits here under Recently deleted.`,
        tone: "success",
        action: { label: "Undo", run: () => restore.mutate(m) },
      });
    },
    onError: (e) => toast({ message: e.message, tone: "error" }),
  });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const bulk = useBulkChange(() => setSelected(new Set()));
  if (!query.isSuccess) return <QueryState query={query} loading="Loading deleted memories…" />;
  const items = query.data;
  const keyOf = (m: { workspace: string | null; id: string }) => `${m.workspace ?? ""}/${m.id}`;
  const chosen = items.filter((m) => selected.has(keyOf(m)));
  const pick = (k: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(k);
      else next.delete(k);
      return next;
    });
  return (
    <div className="space-y-3">
      <p aria-live="polite" className="text-sm">
        {items.length === 0
          ? "No memory is deleted."
          : `${items.length} deleted ${items.length === 1 ? "memory" : "memories"}, newest deletion first.`}
      </p>
      {items.length > 0 && (
        <div
          role="toolbar"
          aria-label="Selected deleted memories"
          className="flex flex-wrap items-center gap-2 text-sm"
        >
          <label className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={chosen.length === items.length}
              onChange={(e) => setSelected(new Set(e.target.checked ? items.map(keyOf) : []))}
            />
            Select all
          </label>
          <span aria-live="polite">{chosen.length} selected</span>
          <WriteButton
            disabled={!chosen.length || bulk.isPending}
            onClick={() =>
              bulk.mutate({
                targets: chosen.map((m) => ({ workspace: m.workspace, id: m.id })),
                action: { kind: "restore" },
              })
            }
          >
            Restore selected
          </WriteButton>
        </div>
      )}
      <ul aria-label="Deleted memories" className="space-y-3">
        {items.map((m) => {
          const name = m.title || m.id;
          return (
            <li
              key={`${m.workspace ?? ""}/${m.id}`}
              aria-label={name}
              className="rounded-md border border-zinc-300 p-3 dark:border-zinc-700"
            >
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <div className="flex items-baseline gap-2">
                  <input
                    type="checkbox"
                    aria-label={`Select “${name}”`}
                    checked={selected.has(keyOf(m))}
                    onChange={(e) => pick(keyOf(m), e.target.checked)}
                  />
                  <h2 className="font-semibold break-words">{name}</h2>
                </div>
                <span className="text-sm text-zinc-700 dark:text-zinc-300">
                  {setName(m.workspace)} · <code className="font-mono">{m.id}</code>
                </span>
              </div>
              <p className="text-sm">
                Deleted <Time iso={m.deletedAt} />
              </p>
              <pre className="mt-2 max-h-40 overflow-auto rounded bg-zinc-100 p-2 font-mono text-sm whitespace-pre-wrap break-words dark:bg-zinc-900">
                {m.text ?? "(its last version cannot be read)"}
              </pre>
              <div className="mt-2 flex flex-wrap items-center gap-3">
                <WriteButton
                  variant="primary"
                  disabled={restore.isPending}
                  onClick={() => restore.mutate({ workspace: m.workspace, id: m.id, title: m.title })}
                >
                  Restore<span className="sr-only"> {name}</span>
                </WriteButton>
                <Link
                  className="text-sm text-blue-700 underline dark:text-blue-300"
                  href={historyHref(m.workspace, m.id)}
                >
                  History<span className="sr-only"> of {name}</span>
                </Link>
                <span className="text-sm text-zinc-700 dark:text-zinc-300">
                  {m.versions} saved version{m.versions === 1 ? "" : "s"}
                </span>
              </div>
            </li>
          );
        })}
      </ul>
      {restore.data?.changed && restore.variables && (
        <p className="text-sm">
          <Link
            className="text-blue-700 underline dark:text-blue-300"
            href={memoryHref(restore.variables.workspace, restore.variables.id)}
          >
            Open the restored memory
          </Link>
        </p>
      )}
    </div>
  );
}
