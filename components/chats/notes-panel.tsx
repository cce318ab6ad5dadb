"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { useSourceHref, useSourceInput } from "@/components/shell/source";
import { ActionError, unwrap } from "@/components/ui/action-error";
import { Button } from "@/components/ui/button";
import type { CheckedNote } from "@/lib/notes";
import { queryKeys } from "@/lib/query-keys";
import { chatDataHref } from "@/lib/routes";
import { addNoteAction, removeNoteAction } from "@/server/actions/notes";
import { formatCount } from "./format";

/** A chat's marks and notes, read from the server (each kept or lost). */
export function notesQuery(id: string, toSource: (href: string) => string) {
  return {
    queryKey: queryKeys.sessions.notes(id),
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      const response = await fetch(toSource(chatDataHref(id, "notes", {})), { signal, cache: "no-store" });
      const body = (await response.json().catch(() => null)) as
        | CheckedNote[]
        | { error: { code: string; message: string } };
      if (!response.ok || !Array.isArray(body))
        throw new ActionError(
          (body as { error?: { code: string; message: string } })?.error ?? {
            code: "unexpected",
            message: `The notes could not be read (${response.status}).`,
          },
        );
      return body;
    },
  };
}

/** "Line 4", or "Lines 4–9" for a note on a range. */
export function linesLabel(note: { line: number; to?: number }): string {
  return note.to ? `Lines ${formatCount(note.line)}–${formatCount(note.to)}` : `Line ${formatCount(note.line)}`;
}

/** Marks (empty text) or notes a line; the notes are read again after. */
export function useAddNote(id: string, generation: string, onMessage: (message: string) => void) {
  const qc = useQueryClient();
  const withSource = useSourceInput();
  return useMutation({
    mutationFn: ({ line, to, text }: { line: number; to?: number; text: string }) =>
      unwrap(addNoteAction(withSource({ id, generation, line, to, text }))),
    onSuccess: (note) => {
      onMessage(
        note.text ? `Note added to ${linesLabel(note).toLowerCase()}.` : `Line ${formatCount(note.line)} marked.`,
      );
      void qc.invalidateQueries({ queryKey: queryKeys.sessions.notes(id) });
    },
    onError: (e) => onMessage(e.message),
  });
}

/**
 * The chat's Notes panel: every mark and note with a link to its line and
 * whether the line still reads as it did, a note for the current line, and
 * removal. Marks and notes live in the admin state, never in the log.
 */
export function NotesPanel({
  id,
  generation,
  current,
  hrefOf,
  onMessage,
}: {
  id: string;
  generation: string;
  current: number;
  hrefOf: (n: number) => string;
  onMessage: (message: string) => void;
}) {
  const qc = useQueryClient();
  const toSource = useSourceHref();
  const withSource = useSourceInput();
  const notes = useQuery(notesQuery(id, toSource));
  const add = useAddNote(id, generation, onMessage);
  const remove = useMutation({
    mutationFn: (note: string) => unwrap(removeNoteAction(withSource({ id, note }))),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.sessions.notes(id) }),
    onError: (e) => onMessage(e.message),
  });
  const [text, setText] = useState("");
  const [to, setTo] = useState("");
  const textId = useId();
  const toId = useId();
  const list = notes.data ?? [];
  const lost = list.filter((n) => n.state === "lost").length;
  return (
    <details className="rounded-md border border-zinc-200 px-3 py-1 text-sm open:w-full dark:border-zinc-800">
      <summary className="cursor-pointer font-semibold">
        Notes and marks ({formatCount(list.length)}
        {lost ? `, ${formatCount(lost)} lost` : ""})
      </summary>
      <div className="mt-2 space-y-3">
        {notes.error && <p role="alert">{notes.error.message}</p>}
        {list.length === 0 && !notes.isPending && (
          <p>No marks or notes yet: press m on a line to mark it, or write a note below.</p>
        )}
        <ul aria-label="Notes of this chat" className="space-y-1">
          {list.map((n) => (
            <li key={n.id} className="flex flex-wrap items-baseline gap-2">
              <Link href={hrefOf(n.line)} className="font-mono text-blue-800 underline dark:text-blue-300">
                {linesLabel(n)}
              </Link>
              <span>{n.text || "marked"}</span>
              <span
                className={
                  n.state === "lost" ? "font-medium text-red-800 dark:text-red-300" : "text-zinc-600 dark:text-zinc-400"
                }
              >
                {n.state === "lost" ? `lost: ${n.to ? "a line of the range" : "the line"} changed since` : "kept"}
              </span>
              <Button variant="ghost" onClick={() => remove.mutate(n.id)} disabled={remove.isPending}>
                Remove
                <span className="sr-only">
                  {" "}
                  the {n.text ? "note" : "mark"} on {linesLabel(n).toLowerCase()}
                </span>
              </Button>
            </li>
          ))}
        </ul>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (!text.trim()) return onMessage("Write the note first.");
            const last = to.trim() ? Number(to) : current;
            if (!Number.isInteger(last) || last < current)
              return onMessage(`The range ends at a line from ${formatCount(current)} on.`);
            add.mutate(
              { line: current, to: last, text },
              {
                onSuccess: () => {
                  setText("");
                  setTo("");
                },
              },
            );
          }}
        >
          <label htmlFor={toId} className="flex flex-col gap-0.5">
            <span>To line (for a range)</span>
            <input
              id={toId}
              type="number"
              min={current}
              value={to}
              onChange={(e) => setTo(e.target.value)}
              placeholder={String(current)}
              className="w-28 rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-600 dark:bg-zinc-900"
            />
          </label>
          <label htmlFor={textId} className="flex flex-col gap-0.5">
            <span>Note on line {formatCount(current)}</span>
            <textarea
              id={textId}
              dir="auto"
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={2}
              className="w-72 rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-600 dark:bg-zinc-900"
            />
          </label>
          <Button type="submit" disabled={add.isPending}>
            Add note
          </Button>
        </form>
      </div>
    </details>
  );
}
