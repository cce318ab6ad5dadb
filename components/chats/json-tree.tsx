"use client";

import { useState } from "react";
import { formatCount } from "./format";

/** Strings longer than this are folded to their start, with their length. */
const FOLD = 160;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The jq-style path of a child: `.key`, `["odd key"]`, `[3]`. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return IDENT.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

const BUTTON = "rounded px-1 text-blue-800 underline hover:bg-zinc-100 dark:text-blue-300 dark:hover:bg-zinc-800";

function CopyButtons({ path, value, onCopied }: { path: string; value: unknown; onCopied: (what: string) => void }) {
  const copy = (text: string, what: string) =>
    void navigator.clipboard.writeText(text).then(
      () => onCopied(what),
      () => onCopied(`Could not copy ${what}`),
    );
  const shown = path || ".";
  return (
    <span className="ml-2 inline-flex gap-1 text-xs">
      <button
        type="button"
        className={BUTTON}
        onClick={() =>
          copy(typeof value === "string" ? value : JSON.stringify(value, null, 2), `the value of ${shown}`)
        }
      >
        Copy value<span className="sr-only"> of {shown}</span>
      </button>
      <button type="button" className={BUTTON} onClick={() => copy(shown, `the path ${shown}`)}>
        Copy path<span className="sr-only"> {shown}</span>
      </button>
    </span>
  );
}

function Leaf({ value }: { value: unknown }) {
  const [all, setAll] = useState(false);
  if (typeof value !== "string")
    return <span className="text-emerald-800 dark:text-emerald-300">{JSON.stringify(value)}</span>;
  if (value.length <= FOLD || all)
    return (
      <span className="break-all whitespace-pre-wrap text-amber-900 dark:text-amber-200">{JSON.stringify(value)}</span>
    );
  return (
    <span className="break-all text-amber-900 dark:text-amber-200">
      {JSON.stringify(value.slice(0, FOLD))}…{" "}
      <button type="button" className={BUTTON} onClick={() => setAll(true)}>
        Show all {formatCount(value.length)} characters
      </button>
    </span>
  );
}

/** One node: a key and a value; objects and arrays fold (children are rendered only when open). */
function Node({
  name,
  value,
  path,
  depth,
  onCopied,
}: {
  name: string | null;
  value: unknown;
  path: string;
  depth: number;
  onCopied: (what: string) => void;
}) {
  const branch = value !== null && typeof value === "object";
  const [open, setOpen] = useState(depth < 2);
  const label = name === null ? null : <span className="font-semibold">{name}: </span>;
  if (!branch)
    return (
      <li className="py-0.5">
        {label}
        <Leaf value={value} />
        <CopyButtons path={path} value={value} onCopied={onCopied} />
      </li>
    );
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value as Record<string, unknown>);
  const size = Array.isArray(value) ? `[${entries.length} items]` : `{${entries.length} keys}`;
  return (
    <li className="py-0.5">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="rounded px-0.5 text-left hover:bg-zinc-100 dark:hover:bg-zinc-800"
      >
        <span aria-hidden="true">{open ? "▾ " : "▸ "}</span>
        {label ?? <span className="font-semibold">{path || "."} </span>}
        <span className="text-zinc-600 dark:text-zinc-400">{size}</span>
      </button>
      <CopyButtons path={path} value={value} onCopied={onCopied} />
      {open && (
        <ul className="ml-4 border-l border-zinc-200 pl-2 dark:border-zinc-700">
          {entries.map(([key, child]) => (
            <Node
              key={String(key)}
              name={String(key)}
              value={child}
              path={childPath(path, key)}
              depth={depth + 1}
              onCopied={onCopied}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * A line's JSON as a tree, jless-style: objects and arrays collapse and
 * expand, any value or its path (jq style) can be copied, long strings are
 * folded with their length.
 */
export function JsonTree({ value, label }: { value: unknown; label: string }) {
  const [copied, setCopied] = useState("");
  return (
    <div className="font-mono text-xs">
      <ul aria-label={label}>
        <Node name={null} value={value} path="" depth={0} onCopied={(what) => setCopied(`Copied ${what}.`)} />
      </ul>
      <p aria-live="polite" className="sr-only">
        {copied}
      </p>
    </div>
  );
}
