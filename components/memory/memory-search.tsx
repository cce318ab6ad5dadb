"use client";

import { useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "@/components/ui/link";
import { memoryHref } from "@/lib/routes";
import type { MemorySet } from "@/lib/types";
import { setLabel } from "./names";

type Hit =
  | {
      kind: "memory";
      key: string;
      workspace: string | null;
      id: string;
      title: string;
      text: string;
      enabled: boolean;
      author: "user" | "ai";
    }
  | { kind: "problem"; key: string; workspace: string | null; id: string; path: string; message: string };

const SHOWN = 200;

const select = "rounded-md border border-zinc-400 bg-white px-2 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-900";

/** Search across every title and text (the `/` key focuses it), with filters for state, source and problems. */
export function MemorySearch({ sets }: { sets: MemorySet[] }) {
  const [q, setQ] = useState("");
  const [state, setState] = useState<"any" | "on" | "off">("any");
  const [source, setSource] = useState<"any" | "user" | "ai">("any");
  const [problems, setProblems] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const needle = useDeferredValue(q.trim().toLocaleLowerCase());

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
      if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
      e.preventDefault();
      input.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const all = useMemo<Hit[]>(
    () =>
      sets.flatMap((s) => [
        ...s.memories.map((m) => ({ kind: "memory" as const, key: `${s.workspace}/${m.id}`, ...m })),
        ...s.problems.map((p) => ({
          kind: "problem" as const,
          key: `${s.workspace}/${p.id}`,
          workspace: s.workspace,
          ...p,
        })),
      ]),
    [sets],
  );
  const filtering = needle !== "" || state !== "any" || source !== "any" || problems;
  const hits = useMemo(
    () =>
      all.filter((h) => {
        if (h.kind === "problem") {
          if (state !== "any" || source !== "any") return false;
          return !needle || `${h.path}\n${h.message}`.toLocaleLowerCase().includes(needle);
        }
        if (problems) return false;
        if (state !== "any" && h.enabled !== (state === "on")) return false;
        if (source !== "any" && h.author !== source) return false;
        return !needle || `${h.title}\n${h.text}`.toLocaleLowerCase().includes(needle);
      }),
    [all, needle, state, source, problems],
  );

  return (
    <section aria-labelledby="search-heading" className="space-y-3">
      <h2 id="search-heading" className="text-lg font-semibold">
        Find a memory
      </h2>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex min-w-0 flex-1 basis-60 flex-col gap-1 text-sm">
          <span>
            Search titles and texts <kbd className="rounded border px-1 text-xs">/</kbd>
          </span>
          <input
            dir="auto"
            ref={input}
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            className="rounded-md border border-zinc-400 bg-white px-2 py-1.5 dark:border-zinc-600 dark:bg-zinc-900"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          State
          <select value={state} onChange={(e) => setState(e.target.value as typeof state)} className={select}>
            <option value="any">On or off</option>
            <option value="on">On</option>
            <option value="off">Off</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Source
          <select value={source} onChange={(e) => setSource(e.target.value as typeof source)} className={select}>
            <option value="any">Anyone</option>
            <option value="user">Saved by you</option>
            <option value="ai">Saved by the agent</option>
          </select>
        </label>
        <label className="flex items-center gap-2 pb-1.5 text-sm">
          <input type="checkbox" checked={problems} onChange={(e) => setProblems(e.target.checked)} />
          Has problems
        </label>
      </div>
      {filtering && (
        <>
          <p role="status" aria-live="polite" className="text-sm">
            {hits.length === 1 ? "1 result" : `${hits.length.toLocaleString("en")} results`}
            {hits.length > SHOWN ? `; the first ${SHOWN} are shown, narrow the search to see the others.` : ""}
          </p>
          <ul aria-label="Search results" className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {hits.slice(0, SHOWN).map((h) => (
              <li key={h.key} className="py-2">
                <Link
                  href={memoryHref(h.workspace, h.id)}
                  className="font-medium text-blue-800 underline dark:text-blue-300"
                >
                  {h.kind === "memory" ? h.title : h.path}
                </Link>{" "}
                <span className="text-xs text-zinc-700 dark:text-zinc-300">
                  {setLabel(h.workspace)}
                  {h.kind === "memory"
                    ? ` · ${h.enabled ? "on" : "off"} · ${h.author === "ai" ? "saved by the agent" : "saved by you"}`
                    : " · has a problem"}
                </span>
                <p className="line-clamp-2 text-sm break-words text-zinc-800 dark:text-zinc-200">
                  {h.kind === "memory" ? h.text : h.message}
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
