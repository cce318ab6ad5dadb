"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useSourceInput } from "@/components/shell/source";
import { unwrap } from "@/components/ui/action-error";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { WriteButton } from "@/components/ui/write-button";
import { queryKeys } from "@/lib/query-keys";
import { saveRawFileAction } from "@/server/actions/memory";
import { setName } from "./names";

/** A problem file's raw text, its faulty line marked, and an in-place editor that saves only a file that reads. */
export function ProblemsFile({
  workspace,
  id,
  path,
  raw,
  sha256,
  line,
}: {
  workspace: string | null;
  id: string;
  path: string;
  raw: string | null;
  sha256: string | null;
  line: number | null;
}) {
  const withSource = useSourceInput();
  const ids = useId();
  const client = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(raw ?? "");
  const save = useMutation({
    mutationFn: () =>
      unwrap(saveRawFileAction(withSource({ workspace, id, raw: draft, expectedSha256: sha256 ?? undefined }))),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: queryKeys.memory.all });
      toast({
        message: r.changed
          ? `${path} is fixed: the memory is back in ${setName(workspace).toLowerCase()} memory.`
          : (r.message ?? ""),
        tone: "success",
      });
      setEditing(false);
    },
  });
  if (raw === null) return <p className="text-sm">The file&apos;s text cannot be shown; fix it in a text editor.</p>;
  const lines = raw.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return (
    <div className="space-y-2">
      <section aria-label={`Text of ${path}`}>
        <pre
          // biome-ignore lint/a11y/noNoninteractiveTabindex: lets keyboard users scroll the file
          tabIndex={0}
          className="max-h-80 overflow-auto rounded border border-zinc-300 bg-zinc-50 py-2 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-900"
        >
          {lines.map((text, i) => {
            const n = i + 1;
            const faulty = n === line;
            return (
              <div
                // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
                key={i}
                data-faulty={faulty ? "" : undefined}
                className={`flex ${faulty ? "bg-red-100 font-semibold dark:bg-red-950" : ""}`}
              >
                <span
                  aria-hidden="true"
                  className="w-10 shrink-0 pr-2 text-right text-zinc-600 select-none dark:text-zinc-400"
                >
                  {n}
                </span>
                <span aria-hidden="true" className="w-5 shrink-0 text-red-800 dark:text-red-300">
                  {faulty ? "▶" : ""}
                </span>
                {faulty ? (
                  <mark className="bg-transparent whitespace-pre-wrap break-all text-inherit">
                    <span className="sr-only">{`Line ${n}, named by the parser: `}</span>
                    {text}
                  </mark>
                ) : (
                  <span className="whitespace-pre-wrap break-all">{text}</span>
                )}
              </div>
            );
          })}
        </pre>
      </section>
      {!editing ? (
        <WriteButton
          onClick={() => {
            setDraft(raw);
            save.reset();
            setEditing(true);
          }}
        >
          Fix the file here<span className="sr-only"> ({path})</span>
        </WriteButton>
      ) : (
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <label htmlFor={`${ids}-raw`} className="block text-sm font-medium">
            Raw text of {path}
          </label>
          <textarea
            dir="auto"
            id={`${ids}-raw`}
            rows={Math.min(20, Math.max(6, draft.split("\n").length + 1))}
            spellCheck={false}
            aria-invalid={save.isError || undefined}
            aria-describedby={`${ids}-err ${ids}-hint`}
            className="w-full rounded border border-zinc-400 bg-white p-2 font-mono text-sm dark:border-zinc-600 dark:bg-zinc-900"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
          <p id={`${ids}-hint`} className="text-xs text-zinc-700 dark:text-zinc-300">
            Saved exactly as written, and only if the file then reads with no problem.
          </p>
          <p id={`${ids}-err`} aria-live="assertive" className="text-sm font-medium text-red-800 dark:text-red-300">
            {save.isError ? save.error.message : ""}
          </p>
          <div className="flex gap-2">
            <WriteButton type="submit" variant="primary" disabled={save.isPending}>
              Save the fix
            </WriteButton>
            <Button onClick={() => setEditing(false)}>Cancel</Button>
          </div>
        </form>
      )}
    </div>
  );
}
