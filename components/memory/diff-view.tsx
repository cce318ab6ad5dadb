"use client";

import { useId } from "react";
import type { DiffLine, FieldChange, MemoryDiff, Segment } from "@/lib/diff/memory-diff";

const ROW = {
  same: "",
  added: "bg-emerald-50 dark:bg-emerald-950/60",
  removed: "bg-red-50 dark:bg-red-950/60",
} as const;

/** The changed words: `<del>`/`<ins>` (struck through / underlined, so they read without colour). */
function Segments({ line }: { line: DiffLine }) {
  const paired = line.segments.some((s) => !s.changed);
  if (line.kind === "same") return <>{line.text}</>;
  const Tag = line.kind === "added" ? "ins" : "del";
  const word = line.kind === "added" ? "added" : "removed";
  const strong =
    line.kind === "added"
      ? "bg-emerald-200 text-emerald-950 dark:bg-emerald-800 dark:text-emerald-50"
      : "bg-red-200 text-red-950 dark:bg-red-800 dark:text-red-50";
  if (!paired)
    return (
      <Tag className="no-underline data-[kind=removed]:line-through" data-kind={word}>
        <span className="sr-only">{`${word}: `}</span>
        {line.text}
      </Tag>
    );
  // Keys: each segment's offset in the line, stable for a given line.
  const offsets: number[] = [];
  line.segments.reduce((at, s) => {
    offsets.push(at);
    return at + s.text.length;
  }, 0);
  return (
    <>
      {line.segments.map((s: Segment, i) =>
        s.changed ? (
          <Tag
            key={offsets[i]}
            data-word={word}
            className={`rounded-sm ${strong} ${word === "removed" ? "line-through" : "underline"}`}
          >
            <span className="sr-only">{`${word} words: `}</span>
            {s.text}
          </Tag>
        ) : (
          <span key={offsets[i]}>{s.text}</span>
        ),
      )}
    </>
  );
}

const MARK = { same: " ", added: "+", removed: "−" } as const;
const SR = { same: "", added: "Added line: ", removed: "Removed line: " } as const;

function Cell({ line, side }: { line: DiffLine | null; side: "old" | "new" | "inline" }) {
  if (!line) return <td colSpan={2} className="bg-zinc-50 dark:bg-zinc-900" />;
  const no = side === "old" || (side === "inline" && line.kind === "removed") ? line.oldNo : line.newNo;
  return (
    <>
      <td className={`px-1 text-right align-top text-zinc-600 select-none dark:text-zinc-400 ${ROW[line.kind]}`}>
        {no}
      </td>
      <td className={`px-2 align-top whitespace-pre-wrap break-words ${ROW[line.kind]}`}>
        <span aria-hidden="true" className="mr-1 font-bold">
          {MARK[line.kind]}
        </span>
        <span className="sr-only">{SR[line.kind]}</span>
        <Segments line={line} />
      </td>
    </>
  );
}

function show(v: string | boolean | null): string {
  if (v === null) return "(none: the file had a problem)";
  if (typeof v === "boolean") return v ? "on" : "off";
  return v;
}

/** Title and `enabled` changes, as old → new. */
export function DiffFields({ fields }: { fields: FieldChange[] }) {
  if (!fields.length) return null;
  return (
    <dl aria-label="Changed fields" className="space-y-1 text-sm">
      {fields.map((f) => (
        <div key={f.field} className="flex flex-wrap gap-x-2">
          <dt className="font-medium">{f.field === "title" ? "Title" : "On/off"}:</dt>
          <dd>
            <del className="bg-red-100 px-1 dark:bg-red-950">
              <span className="sr-only">was </span>
              {show(f.old)}
            </del>{" "}
            <span aria-hidden="true">→</span>
            <span className="sr-only">, now</span>{" "}
            <ins className="bg-emerald-100 px-1 dark:bg-emerald-950">{show(f.new)}</ins>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A diff of two states: field changes, then the text inline or side by side. */
export function DiffView({
  diff,
  mode,
  oldLabel,
  newLabel,
}: {
  diff: MemoryDiff;
  mode: "inline" | "side";
  oldLabel: string;
  newLabel: string;
}) {
  const captionId = useId();
  const noText = diff.added === 0 && diff.removed === 0;
  return (
    <div className="space-y-3">
      <DiffFields fields={diff.fields} />
      <p className="text-sm" aria-live="polite">
        {noText
          ? "The text is the same."
          : `${diff.removed} line${diff.removed === 1 ? "" : "s"} removed (−), ${diff.added} line${diff.added === 1 ? "" : "s"} added (+).`}
      </p>
      <div className="overflow-x-auto rounded border border-zinc-300 dark:border-zinc-700">
        <table aria-labelledby={captionId} className="w-full table-fixed border-collapse font-mono text-sm">
          <caption id={captionId} className="sr-only">
            {mode === "inline"
              ? `Text changes from ${oldLabel} to ${newLabel}, inline`
              : `Text changes side by side: ${oldLabel} on the left, ${newLabel} on the right`}
          </caption>
          {mode === "inline" ? (
            <colgroup>
              <col className="w-12" />
              <col />
            </colgroup>
          ) : (
            <colgroup>
              <col className="w-12" />
              <col />
              <col className="w-12" />
              <col />
            </colgroup>
          )}
          {mode === "inline" ? (
            <>
              <thead className="sr-only">
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Text</th>
                </tr>
              </thead>
              <tbody>
                {diff.inline.map((line, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
                  <tr key={i} data-line={line.kind}>
                    <Cell line={line} side="inline" />
                  </tr>
                ))}
              </tbody>
            </>
          ) : (
            <>
              <thead className="border-b border-zinc-300 text-left font-sans text-xs dark:border-zinc-700">
                <tr>
                  <th scope="col" colSpan={2} className="px-2 py-1 font-medium">
                    {oldLabel}
                  </th>
                  <th
                    scope="col"
                    colSpan={2}
                    className="border-l border-zinc-300 px-2 py-1 font-medium dark:border-zinc-700"
                  >
                    {newLabel}
                  </th>
                </tr>
              </thead>
              <tbody>
                {diff.sideBySide.map((row, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
                  <tr key={i} data-side-row="">
                    <Cell line={row.left} side="old" />
                    <Cell line={row.right} side="new" />
                  </tr>
                ))}
              </tbody>
            </>
          )}
        </table>
      </div>
    </div>
  );
}
