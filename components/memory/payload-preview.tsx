"use client";

import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useSourceInput } from "@/components/shell/source";
import { unwrap } from "@/components/ui/action-error";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { previewNoteAction } from "@/server/actions/memory";
import { setName } from "./names";
import { withPageNumbers } from "./page-numbers";

interface Pickable {
  id: string;
  workspace: string | null;
  title: string;
  text: string;
  enabled: boolean;
}

type Kind = "edit" | "enabled" | "delete";

const FIELD = "w-full rounded border border-zinc-400 bg-white px-2 py-1 dark:border-zinc-600 dark:bg-zinc-900";

/** "After an edit, preview the note a running chat would be sent": a change tried out, never saved. */
export function PayloadPreview({ workspace, memories }: { workspace: string | null; memories: Pickable[] }) {
  const ids = useId();
  const [pick, setPick] = useState<string>("");
  const target = memories.find((m) => `${m.workspace ?? ""}/${m.id}` === pick) ?? memories[0] ?? null;
  return (
    <section
      aria-labelledby={`${ids}-h`}
      className="space-y-3 rounded-md border border-zinc-300 p-4 dark:border-zinc-700"
    >
      <h2 id={`${ids}-h`} className="text-lg font-semibold">
        After an edit, preview the note a running chat would be sent
      </h2>
      <p className="text-sm">
        Try a change to one memory and see the note a chat that is already running would receive. Nothing is saved.
      </p>
      {memories.length === 0 ? (
        <p className="text-sm">There is no memory to change in these sets.</p>
      ) : (
        <>
          <div className="flex flex-col gap-1 text-sm">
            <label htmlFor={`${ids}-pick`} className="font-medium">
              Memory to change
            </label>
            <select
              id={`${ids}-pick`}
              className={`${FIELD} max-w-xl`}
              value={target ? `${target.workspace ?? ""}/${target.id}` : ""}
              onChange={(e) => setPick(e.target.value)}
            >
              {memories.map((m) => (
                <option key={`${m.workspace ?? ""}/${m.id}`} value={`${m.workspace ?? ""}/${m.id}`}>
                  {m.title} ({setName(m.workspace)}
                  {m.enabled ? "" : ", off"})
                </option>
              ))}
            </select>
          </div>
          {target && (
            <PreviewForm key={`${target.workspace ?? ""}/${target.id}`} workspace={workspace} memory={target} />
          )}
        </>
      )}
    </section>
  );
}

function PreviewForm({ workspace, memory }: { workspace: string | null; memory: Pickable }) {
  const withSource = useSourceInput();
  const ids = useId();
  const [kind, setKind] = useState<Kind>("edit");
  const [title, setTitle] = useState(memory.title);
  const [text, setText] = useState(memory.text);
  const preview = useMutation({
    mutationFn: () =>
      unwrap(
        previewNoteAction(
          withSource({
            workspace,
            target: { workspace: memory.workspace, id: memory.id },
            change:
              kind === "edit"
                ? { kind, title, text }
                : kind === "enabled"
                  ? { kind, enabled: !memory.enabled }
                  : { kind },
          }),
        ),
      ),
  });
  const kinds: [Kind, string][] = [
    ["edit", "Change the title or text"],
    ["enabled", memory.enabled ? "Turn it off" : "Turn it on"],
    ["delete", "Delete it"],
  ];
  const r = preview.data;
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        preview.mutate();
      }}
    >
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="mb-1 font-medium">The change</legend>
        {kinds.map(([k, label]) => (
          <label key={k} className="flex items-center gap-1.5">
            <input type="radio" name={`${ids}-kind`} value={k} checked={kind === k} onChange={() => setKind(k)} />
            {label}
          </label>
        ))}
      </fieldset>
      {kind === "edit" && (
        <div className="space-y-2 text-sm">
          <Field id={`${ids}-title`} label="New title" className="flex flex-col gap-1" labelClassName="font-medium">
            {(control) => (
              <input {...control} className={FIELD} value={title} onChange={(e) => setTitle(e.target.value)} />
            )}
          </Field>
          <Field id={`${ids}-text`} label="New text" className="flex flex-col gap-1" labelClassName="font-medium">
            {(control) => (
              <textarea
                {...control}
                rows={5}
                className={`${FIELD} font-mono`}
                value={text}
                onChange={(e) => setText(e.target.value)}
              />
            )}
          </Field>
        </div>
      )}
      <Button type="submit" variant="primary" disabled={preview.isPending}>
        Preview the note
      </Button>
      <div aria-live="polite" className="space-y-2 text-sm">
        {preview.isError && (
          <p role="alert" className="text-red-800 dark:text-red-300">
            {preview.error.message}
          </p>
        )}
        {r && (
          <>
            {r.problems.map((p) => (
              <p key={p.field} className="text-red-800 dark:text-red-300">
                Saving this would be refused: {withPageNumbers(p.message)}
              </p>
            ))}
            <p>
              The chat would then receive about {r.tokens.toLocaleString("en")} tokens (now{" "}
              {r.before.toLocaleString("en")}) of the {r.limit.toLocaleString("en")}-token limit.
            </p>
            {r.note === null ? (
              <p>No note would be sent: what this chat receives would not change.</p>
            ) : (
              <section aria-label="The note a running chat would be sent">
                <pre className="overflow-auto rounded border border-zinc-300 bg-zinc-50 p-3 font-mono whitespace-pre-wrap break-words dark:border-zinc-700 dark:bg-zinc-900">
                  {r.note}
                </pre>
              </section>
            )}
          </>
        )}
      </div>
    </form>
  );
}
