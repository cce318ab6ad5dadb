"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useLeaveGuard } from "@/components/shell/use-leave-guard";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Link } from "@/components/ui/link";
import { Switch } from "@/components/ui/switch";
import { useWriteLock, WriteButton } from "@/components/ui/write-button";
import {
  checkTitleAndText,
  countCodePoints,
  countUtf8Bytes,
  estimateTokens,
  normaliseText,
  normaliseTitle,
  renderPayload,
  serialiseMemoryFile,
} from "@/lib/memory/format";
import { MESSAGES } from "@/lib/memory/messages";
import { historyHref, memoryPages, setHref } from "@/lib/routes";
import { DraftOffer } from "./draft-offer";
import { LimitCounter, limitLevel } from "./limit-counter";
import { setLabel } from "./names";
import { OutsideChangeNotice } from "./outside-change-notice";
import { withPageNumbers } from "./page-numbers";
import { TokenEstimate } from "./token-estimate";
import { useMemoryEditor } from "./use-memory-editor";

const field =
  "w-full rounded-md border bg-white px-2 py-1.5 dark:bg-zinc-900 aria-[invalid=true]:border-red-700 border-zinc-400 dark:border-zinc-600";

/**
 * The memory editor: title and text with live counters (characters, file
 * bytes, and the tokens every affected chat would receive, computed in the
 * browser), save with Ctrl/Cmd+S and Undo, on/off, delete, and outside changes.
 */
export function MemoryEditor({ workspace, id }: { workspace: string | null; id: string | null }) {
  const ed = useMemoryEditor(workspace, id);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const limits = ed.context.data?.limits;
  const title = normaliseTitle(ed.draft.title);
  const text = normaliseText(ed.draft.text);

  const measures = useMemo(() => {
    if (!limits) return null;
    // A fixed-length stand-in for the moment of saving: the bytes are those the save would write.
    const now = new Date().toISOString();
    const base = ed.loaded?.ok ? ed.loaded.fields : null;
    const fields = base
      ? { ...base, title, updated: now }
      : { title, enabled: ed.enabled, source: "user" as const, created: now, updated: now };
    const edited = ed.enabled ? { title, text } : null;
    return {
      titleChars: countCodePoints(title),
      textChars: countCodePoints(text),
      bytes: countUtf8Bytes(serialiseMemoryFile(fields, text)),
      chats: (ed.context.data?.chats ?? []).map((c) => ({
        workspace: c.workspace,
        tokens: estimateTokens(renderPayload(edited ? [...c.before, edited, ...c.after] : [...c.before, ...c.after])),
      })),
    };
  }, [limits, title, text, ed.loaded, ed.enabled, ed.context.data]);

  const bytesOver = measures && limits ? measures.bytes > limits.fileMaxBytes : false;
  // A refusal shown under a field stays only while the value still fails the server's own check.
  const live = limits ? checkTitleAndText(ed.draft.title, ed.draft.text, limits) : [];
  const liveError = (field: "title" | "text") =>
    ed.errors[field] ? withPageNumbers(live.find((p) => p.field === field)?.message ?? "") || undefined : undefined;
  const errors = { title: liveError("title"), text: liveError("text") };
  const guard = useLeaveGuard(ed.dirty);
  const writeLock = useWriteLock();
  const submit = () => {
    // Ctrl+S and Enter too: nothing is sent from a read-only source (the server would refuse it anyway).
    if (writeLock.disabled || ed.save.isPending || bytesOver || (id !== null && !ed.loaded?.ok)) return;
    ed.save.mutate(undefined);
  };
  const submitRef = useRef(submit);
  submitRef.current = submit;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        submitRef.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if (ed.context.isError || ed.memory.isError) {
    return (
      <p role="alert" className="text-red-700 dark:text-red-400">
        {(ed.context.error ?? ed.memory.error)?.message}
      </p>
    );
  }
  if (ed.gone) {
    return (
      <div role="alert" className="space-y-2">
        <p>This memory&apos;s file is gone: it was deleted, in the app or outside it.</p>
        <p>
          <Link href={setHref(workspace)} className="text-blue-800 underline dark:text-blue-300">
            Back to {setLabel(workspace)}
          </Link>{" "}
          ·{" "}
          <Link href={memoryPages.deleted} className="text-blue-800 underline dark:text-blue-300">
            Recently deleted
          </Link>
        </p>
      </div>
    );
  }
  if (!limits || !measures || (id !== null && !ed.loaded)) return <p role="status">Reading the memory…</p>;
  if (ed.loaded && !ed.loaded.ok) {
    return (
      <div role="alert" className="space-y-2 rounded-lg border border-amber-600 p-4">
        <p className="font-semibold">This memory&apos;s file has a problem, so it is not sent to any chat.</p>
        <p>{ed.loaded.problem}</p>
        <Link href={memoryPages.problems} className="text-blue-800 underline dark:text-blue-300">
          Fix it on the Problems page
        </Link>
      </div>
    );
  }

  return (
    <form
      noValidate
      aria-label={id === null ? "New memory" : "Edit memory"}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      className="max-w-3xl space-y-5"
    >
      {ed.outside && (
        <OutsideChangeNotice
          outside={ed.outside.ok ? ed.outside : { problem: ed.outside.problem }}
          mine={{ title, text }}
          busy={ed.save.isPending}
          onKeepMine={ed.keepMine}
          onUseOutside={ed.useOutside}
        />
      )}
      {ed.stored.offer && (
        <DraftOffer draft={ed.stored.offer} onRestore={ed.restoreDraft} onDiscard={ed.stored.discard} />
      )}
      {ed.note && (
        <p role="status" className="rounded-md border border-blue-600 bg-blue-50 p-3 text-sm dark:bg-blue-950/40">
          {ed.note}
        </p>
      )}
      <Field
        id="title"
        label="Title"
        error={errors.title}
        invalid={limitLevel(measures.titleChars, limits.titleMaxChars) === "error"}
        describedBy={["title-counter"]}
      >
        {(control) => (
          <>
            <input
              {...control}
              value={ed.draft.title}
              onChange={(e) => ed.setDraft((d) => ({ ...d, title: e.target.value }))}
              className={field}
            />
            <LimitCounter
              id="title-counter"
              label="Title"
              value={measures.titleChars}
              limit={limits.titleMaxChars}
              unit="characters"
            />
          </>
        )}
      </Field>
      <Field
        id="text"
        label="Text"
        error={errors.text}
        invalid={limitLevel(measures.textChars, limits.textMaxChars) === "error"}
        describedBy={["text-counter", "bytes-counter", "tokens-counter"]}
      >
        {(control) => (
          <>
            <textarea
              {...control}
              rows={10}
              value={ed.draft.text}
              onChange={(e) => ed.setDraft((d) => ({ ...d, text: e.target.value }))}
              className={`${field} font-mono text-sm`}
            />
            <LimitCounter
              id="text-counter"
              label="Text"
              value={measures.textChars}
              limit={limits.textMaxChars}
              unit="characters"
            />
            <LimitCounter
              id="bytes-counter"
              label="File size"
              value={measures.bytes}
              limit={limits.fileMaxBytes}
              unit="bytes"
            />
            <TokenEstimate chats={measures.chats} limit={limits.chatMaxTokens} sent={ed.enabled} />
          </>
        )}
      </Field>
      {bytesOver && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {withPageNumbers(MESSAGES.couldNotChange(MESSAGES.fileTooLarge(limits.fileMaxBytes)))}
        </p>
      )}
      {ed.errors.form && (
        <p
          role="alert"
          className="rounded-md border border-red-700 bg-red-50 p-3 text-sm font-medium text-red-800 dark:bg-red-950/40 dark:text-red-300"
        >
          {ed.errors.form}
        </p>
      )}
      <Switch writes checked={ed.enabled} onChange={ed.setEnabled} label="Send this memory to chats" showLabel />
      <div className="flex flex-wrap items-center gap-2 border-t border-zinc-200 pt-4 dark:border-zinc-800">
        <WriteButton type="submit" variant="primary" disabled={ed.save.isPending || bytesOver}>
          {ed.save.isPending ? "Saving…" : "Save"}
        </WriteButton>
        <span className="text-xs text-zinc-700 dark:text-zinc-300">
          {ed.dirty ? "Unsaved edits" : id === null ? "Not saved yet" : "Saved"} · Ctrl+S or ⌘S saves
        </span>
        <span className="flex-1" />
        {id !== null && (
          <>
            <Link href={historyHref(workspace, id)} className="text-sm text-blue-800 underline dark:text-blue-300">
              History
            </Link>
            <WriteButton variant="danger" onClick={() => setConfirmDelete(true)} disabled={ed.remove.isPending}>
              Delete
            </WriteButton>
          </>
        )}
      </div>
      <ConfirmDialog
        open={guard.pending !== null}
        title="Leave without saving?"
        confirmLabel="Leave this page"
        danger
        onCancel={guard.stay}
        onConfirm={guard.leave}
      >
        <p>
          Your edits to “{title || "Untitled"}” are not saved. They stay in this browser as a draft, which the editor
          offers back when you open this memory again.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmDelete}
        title="Delete this memory?"
        confirmLabel="Delete memory"
        danger
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          setConfirmDelete(false);
          ed.remove.mutate();
        }}
      >
        <p>
          “{title || "Untitled"}” is removed from {setLabel(workspace).toLowerCase()} and no longer sent to chats. Its
          text is kept as a version, and it waits under Recently deleted.
        </p>
      </ConfirmDialog>
    </form>
  );
}
