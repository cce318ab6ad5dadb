"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSourceInput } from "@/components/shell/source";
import { unwrap } from "@/components/ui/action-error";
import { type ColumnHead, ColumnHeads } from "@/components/ui/column-heads";
import { Link } from "@/components/ui/link";
import { QueryState } from "@/components/ui/query-state";
import { Switch } from "@/components/ui/switch";
import { Time } from "@/components/ui/time";
import { useToast } from "@/components/ui/toast";
import { WriteButton } from "@/components/ui/write-button";
import { queryKeys } from "@/lib/query-keys";
import { memoryHref } from "@/lib/routes";
import type { BulkAction } from "@/lib/types";
import { setEnabledAction } from "@/server/actions/memory";
import { MoveSelected } from "./move-selected";
import { ProblemList } from "./problem-list";
import { memoryQueries } from "./queries";
import { useBulkChange } from "./use-bulk-change";

const MEMORY_COLUMNS: ColumnHead[] = [
  { label: "Select", className: "py-2 pr-2" },
  { label: "Title", className: "py-2 pr-3" },
  { label: "On", className: "px-3 py-2" },
  { label: "Source", className: "px-3 py-2" },
  { label: "Updated", className: "hidden px-3 py-2 sm:table-cell" },
  { label: "Size", className: "py-2 pl-3 text-right" },
];

/** One set: its memories (with on/off switches), its problem files and its ignored files; refetched every 2 s. */
export function SetView({ workspace }: { workspace: string | null }) {
  const withSource = useSourceInput();
  const client = useQueryClient();
  const toast = useToast();
  const query = useQuery(memoryQueries.set(workspace));
  const toggle = useMutation({
    mutationFn: (v: { id: string; enabled: boolean }) => unwrap(setEnabledAction(withSource({ workspace, ...v }))),
    onSuccess: (r) => {
      const title = r.memory?.ok ? r.memory.title : "The memory";
      toast({
        tone: "success",
        message: r.message ?? `“${title}” is now ${r.memory?.ok && r.memory.enabled ? "on" : "off"}.`,
      });
    },
    onError: (e) => toast({ tone: "error", message: e.message }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.memory.all }),
  });

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const bulk = useBulkChange(() => setSelected(new Set()));

  if (!query.isSuccess) return <QueryState query={query} loading="Reading the set…" />;
  const { set } = query.data;
  const chosen = set.memories.filter((m) => selected.has(m.id));
  const pick = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const run = (action: BulkAction) => bulk.mutate({ targets: chosen.map((m) => ({ workspace, id: m.id })), action });
  return (
    <div className="space-y-6">
      {set.memories.length === 0 ? (
        <p>This set has no memories yet.</p>
      ) : (
        <div className="space-y-2 overflow-x-auto">
          <div role="toolbar" aria-label="Selected memories" className="flex flex-wrap items-center gap-2 text-sm">
            <label className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={chosen.length === set.memories.length}
                onChange={(e) => setSelected(new Set(e.target.checked ? set.memories.map((m) => m.id) : []))}
              />
              Select all
            </label>
            <span aria-live="polite">{chosen.length} selected</span>
            <WriteButton disabled={!chosen.length || bulk.isPending} onClick={() => run({ kind: "on" })}>
              Turn on selected
            </WriteButton>
            <WriteButton disabled={!chosen.length || bulk.isPending} onClick={() => run({ kind: "off" })}>
              Turn off selected
            </WriteButton>
            <WriteButton
              variant="danger"
              disabled={!chosen.length || bulk.isPending}
              onClick={() => run({ kind: "delete" })}
            >
              Delete selected
            </WriteButton>
            <MoveSelected
              workspace={workspace}
              chosen={chosen}
              disabled={bulk.isPending}
              onMove={(to) => run({ kind: "move", to })}
            />
          </div>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Memories of this set</caption>
            <ColumnHeads columns={MEMORY_COLUMNS} />
            <tbody>
              {set.memories.map((m) => (
                <tr key={m.id} className="border-b border-zinc-200 align-top dark:border-zinc-800">
                  <td className="py-2 pr-2">
                    <input
                      type="checkbox"
                      aria-label={`Select “${m.title}”`}
                      checked={selected.has(m.id)}
                      onChange={(e) => pick(m.id, e.target.checked)}
                    />
                  </td>
                  <th scope="row" className="max-w-[14rem] py-2 pr-3 font-normal break-words">
                    <Link href={memoryHref(workspace, m.id)} className="text-blue-800 underline dark:text-blue-300">
                      {m.title}
                    </Link>
                  </th>
                  <td className="px-3 py-2">
                    <Switch
                      writes
                      checked={m.enabled}
                      label={`Send “${m.title}” to chats`}
                      disabled={toggle.isPending && toggle.variables?.id === m.id}
                      onChange={(enabled) => toggle.mutate({ id: m.id, enabled })}
                    />
                  </td>
                  <td className="px-3 py-2">{m.author === "ai" ? "saved by the agent" : "saved by you"}</td>
                  <td className="hidden px-3 py-2 sm:table-cell">
                    <Time iso={m.updated ?? m.created} />
                  </td>
                  <td className="py-2 pl-3 text-right tabular-nums">
                    {m.textChars.toLocaleString("en")} chars
                    <span className="block text-xs text-zinc-700 dark:text-zinc-300">
                      {m.bytes.toLocaleString("en")} bytes · ~{m.tokens.toLocaleString("en")} tokens
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ProblemList problems={set.problems} heading="Files with a problem" />
      {set.ignored.length > 0 && (
        <section aria-labelledby="ignored-heading" className="text-sm">
          <h2 id="ignored-heading" className="font-semibold">
            Ignored files
          </h2>
          <p className="text-zinc-700 dark:text-zinc-300">
            These names are not memory ids (eight characters, 0-9 and a-f), so they are not memories.
          </p>
          <ul className="mt-1 list-disc pl-5">
            {set.ignored.map((name) => (
              <li key={name}>
                <code className="break-all">{name}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
