"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Link } from "@/components/ui/link";
import { QueryState } from "@/components/ui/query-state";
import { useToast } from "@/components/ui/toast";
import { setName } from "./names";
import { PayloadPreview } from "./payload-preview";
import { memoryQueries } from "./queries";

/** What a chat receives: the exact payload of a workspace (or none), its token estimate, and what is left out. */
export function PayloadView({ initialWorkspace }: { initialWorkspace: string | null }) {
  const [workspace, setWorkspace] = useState<string | null>(initialWorkspace);
  const selectId = useId();
  const toast = useToast();
  const query = useQuery({ ...memoryQueries.payload(workspace), placeholderData: keepPreviousData });
  const data = query.data;
  const workspaces = data?.workspaces ?? (workspace ? [workspace] : []);
  const p = data?.payload;
  const over = p ? p.tokens > p.limit : false;
  const copy = async () => {
    if (!p) return;
    try {
      await navigator.clipboard.writeText(p.text);
      toast({ message: "The payload text is copied.", tone: "success" });
    } catch {
      toast({ message: "The browser did not allow copying; select the text and copy it.", tone: "error" });
    }
  };
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-1 text-sm">
        <label htmlFor={selectId} className="font-medium">
          A chat in
        </label>
        <select
          id={selectId}
          value={workspace ?? ""}
          onChange={(e) => {
            const v = e.target.value || null;
            setWorkspace(v);
            window.history.replaceState(null, "", v ? `?workspace=${encodeURIComponent(v)}` : "?");
          }}
          className="w-full max-w-sm rounded border border-zinc-400 bg-white px-2 py-1 dark:border-zinc-600 dark:bg-zinc-900"
        >
          <option value="">no workspace</option>
          {workspaces.map((w) => (
            <option key={w} value={w}>
              workspace {w}
            </option>
          ))}
        </select>
      </div>
      <QueryState query={query} loading="Reading the memory sets…" />
      {p && (
        <section aria-labelledby={`${selectId}-payload`} className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id={`${selectId}-payload`} className="text-lg font-semibold">
              The payload
            </h2>
            <Button onClick={copy} disabled={!p.text}>
              Copy the payload
            </Button>
          </div>
          <p aria-live="polite" className={over ? "font-medium text-red-800 dark:text-red-300" : ""}>
            <span data-testid="payload-tokens">About {p.tokens.toLocaleString("en")} tokens</span> of the{" "}
            {p.limit.toLocaleString("en")}-token limit
            {over ? " — over the limit" : ""} ({p.included.length} {p.included.length === 1 ? "memory" : "memories"}
            ).
          </p>
          <section aria-label="Payload text">
            <pre
              // biome-ignore lint/a11y/noNoninteractiveTabindex: lets keyboard users scroll the payload
              tabIndex={0}
              className="max-h-[32rem] overflow-auto rounded border border-zinc-300 bg-zinc-50 p-3 font-mono text-sm whitespace-pre-wrap break-words dark:border-zinc-700 dark:bg-zinc-900"
            >
              {p.text || "(empty: this chat receives no memory)"}
            </pre>
          </section>
        </section>
      )}
      {p && (
        <section aria-labelledby={`${selectId}-left`} className="space-y-2">
          <h2 id={`${selectId}-left`} className="text-lg font-semibold">
            Left out
          </h2>
          {p.excluded.length === 0 ? (
            <p className="text-sm">Nothing is left out: every memory of these sets is sent.</p>
          ) : (
            <ul aria-label="Memories left out" className="list-disc space-y-1 pl-5 text-sm">
              {p.excluded.map((m) => (
                <li key={`${m.workspace ?? ""}/${m.id}`}>
                  <span className="font-medium">{m.title ?? m.id}</span> ({setName(m.workspace)},{" "}
                  <code className="font-mono">{m.id}</code>):{" "}
                  {m.reason === "off" ? (
                    "turned off."
                  ) : (
                    <>
                      its file has a problem: {m.message}{" "}
                      <Link className="text-blue-700 underline dark:text-blue-300" href="/memory/problems">
                        Fix it under Problems
                      </Link>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {data && <PayloadPreview workspace={data.payload.workspace} memories={data.memories} />}
    </div>
  );
}
