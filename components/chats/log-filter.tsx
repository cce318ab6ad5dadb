"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useSourceHref } from "@/components/shell/source";
import { ActionError } from "@/components/ui/action-error";
import { Button } from "@/components/ui/button";
import { queryKeys } from "@/lib/query-keys";
import { chatDataHref } from "@/lib/routes";
import type { FilterPageView } from "@/server/views/chat-filter";
import { countOf, formatCount } from "./format";
import { RawLine } from "./raw-line";

const FIELD =
  "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600";

/** The filter's URL parameters, as the page's address carries them. */
export const FILTER_KEYS = ["role", "tool", "problems", "usage", "q", "after", "before", "context"] as const;
export type FilterParams = Partial<Record<(typeof FILTER_KEYS)[number], string>>;

/** The filter parameters of an address's query. */
export function filterParamsOf(search: URLSearchParams): FilterParams {
  const params: FilterParams = {};
  for (const key of FILTER_KEYS) {
    const value = search.get(key);
    if (value) params[key] = value;
  }
  return params;
}

/** True when the parameters filter something (a context alone does not). */
export function filtering(params: FilterParams): boolean {
  return Boolean(
    params.role || params.tool || params.problems || params.usage || params.q || params.after || params.before,
  );
}

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(url, { signal, cache: "no-store" });
  const body = (await response.json().catch(() => null)) as T | { error: { code: string; message: string } } | null;
  if (!response.ok || !body || (typeof body === "object" && "error" in (body as object)))
    throw new ActionError(
      (body as { error?: { code: string; message: string } })?.error ?? {
        code: "unexpected",
        message: `The chat could not be read (${response.status}).`,
      },
    );
  return body as T;
}

/** The filter form: role, tool (the chat's own, with counts), problems, lines with usage, text, context. */
export function FilterBar({
  id,
  generation,
  params,
  onChange,
}: {
  id: string;
  generation: string;
  params: FilterParams;
  onChange: (params: FilterParams) => void;
}) {
  const [opened, setOpen] = useState(false);
  const open = opened || filtering(params);
  const toSource = useSourceHref();
  const tools = useQuery({
    queryKey: queryKeys.sessions.tools(id, generation),
    queryFn: ({ signal }) => getJson<[string, number][]>(toSource(chatDataHref(id, "tools", { generation })), signal),
    enabled: open,
    staleTime: 30_000,
  });
  const formId = useId();
  if (!open)
    return (
      <Button onClick={() => setOpen(true)} aria-expanded={false}>
        Filter lines
      </Button>
    );
  const read = (form: HTMLFormElement): FilterParams => {
    const data = new FormData(form);
    const params: FilterParams = {};
    for (const key of FILTER_KEYS) {
      const value = data.get(key);
      if (typeof value === "string" && value && !(key === "context" && value === "0")) params[key] = value;
    }
    return params;
  };
  return (
    <form
      id={formId}
      aria-label="Filter lines"
      className="flex w-full flex-wrap items-end gap-x-3 gap-y-2 rounded-md border border-zinc-200 p-2 text-sm dark:border-zinc-800"
      onSubmit={(e) => {
        e.preventDefault();
        onChange(read(e.currentTarget));
      }}
    >
      <label className="flex flex-col gap-0.5">
        <span>Role</span>
        <select name="role" defaultValue={params.role ?? ""} className={FIELD}>
          <option value="">any</option>
          <option value="user">user</option>
          <option value="assistant">assistant</option>
          <option value="system">system</option>
        </select>
      </label>
      <label className="flex flex-col gap-0.5">
        <span>Tool</span>
        <select name="tool" defaultValue={params.tool ?? ""} className={FIELD} key={tools.data?.length ?? 0}>
          <option value="">{tools.isPending ? "reading the tools…" : "any"}</option>
          {params.tool && !tools.data?.some(([name]) => name === params.tool) && (
            <option value={params.tool}>{params.tool}</option>
          )}
          {tools.data?.map(([name, n]) => (
            <option key={name} value={name}>
              {name} ({formatCount(n)})
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-1.5 self-center">
        <input type="checkbox" name="problems" value="1" defaultChecked={params.problems === "1"} />
        Problem lines
      </label>
      <label className="flex items-center gap-1.5 self-center">
        <input type="checkbox" name="usage" value="1" defaultChecked={params.usage === "1"} />
        Lines with token usage
      </label>
      <label className="flex flex-col gap-0.5">
        <span>Text</span>
        <input name="q" type="text" dir="auto" defaultValue={params.q ?? ""} className={`${FIELD} w-40`} />
      </label>
      <label className="flex flex-col gap-0.5">
        <span>Context</span>
        <select name="context" defaultValue={params.context ?? "0"} className={FIELD}>
          <option value="0">0 lines</option>
          <option value="2">2 lines</option>
          <option value="5">5 lines</option>
        </select>
      </label>
      {/* The activity strip's time range stays when the rest of the filter changes. */}
      {params.after && <input type="hidden" name="after" value={params.after} />}
      {params.before && <input type="hidden" name="before" value={params.before} />}
      {(params.after || params.before) && (
        <p className="self-center">
          Time: {params.after ? new Date(params.after).toLocaleString("en") : "the start"} to{" "}
          {params.before ? new Date(params.before).toLocaleString("en") : "the end"}
        </p>
      )}
      <Button type="submit" variant="primary">
        Apply filter
      </Button>
      {filtering(params) && (
        <Button
          onClick={() => {
            onChange({});
            setOpen(false);
          }}
        >
          Show all lines
        </Button>
      )}
      {tools.error && <p role="alert">{tools.error.message}</p>}
    </form>
  );
}

const WHY: Record<string, string> = { match: "", result: "Result of a matching tool call", context: "Context" };

/**
 * The lines a filter keeps, page by page (each page read by the server from
 * where the last stopped, with a budget), the lines around them, and how many
 * lines each gap hides. Each line links to itself in the whole log.
 */
export function FilteredLog({
  id,
  generation,
  label,
  params,
  hrefOf,
  downloadOf,
}: {
  id: string;
  generation: string;
  label: string;
  params: FilterParams;
  hrefOf: (n: number) => string;
  downloadOf: (n: number) => string;
}) {
  const toSource = useSourceHref();
  const pages = useInfiniteQuery({
    queryKey: queryKeys.sessions.filter(id, generation, params as Record<string, string>),
    queryFn: ({ pageParam, signal }) =>
      getJson<FilterPageView>(toSource(chatDataHref(id, "filter", { ...params, from: pageParam, generation })), signal),
    initialPageParam: 1,
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const all = pages.data?.pages ?? [];
  const matched = all.reduce((n, p) => n + p.matched, 0);
  const last = all.at(-1);
  const hiddenAfter = last?.hiddenAfter ?? 0;
  const gap = (n: number, key: string) =>
    n > 0 ? (
      <li key={key} className="px-2 py-1 text-center text-xs text-zinc-600 italic dark:text-zinc-400">
        {countOf(n, "line")} hidden
      </li>
    ) : null;
  return (
    <section aria-label={`Filtered lines of ${label}`} className="space-y-2">
      <p aria-live="polite" className="text-sm">
        {pages.isPending
          ? "Filtering…"
          : `${countOf(matched, "matching line")}${last?.next ? `, lines 1 to ${formatCount(last.scannedTo)} read so far` : ""}.`}
      </p>
      {pages.error && (
        <p role="alert" className="rounded border-l-4 border-red-600 bg-red-50 p-2 text-sm dark:bg-red-950">
          {pages.error.message}
        </p>
      )}
      <ul className="rounded-md border border-zinc-200 dark:border-zinc-800">
        {all.flatMap((page, p) =>
          page.lines.flatMap(({ line, why, hiddenBefore }, i) => {
            // Lines hidden before a page's first line were read by the page before it: count them once.
            const hidden = p > 0 && i === 0 ? hiddenBefore + (all[p - 1]?.hiddenAfter ?? 0) : hiddenBefore;
            return [
              gap(hidden, `gap-${line.n}`),
              <li
                key={line.n}
                className={`border-b border-zinc-100 px-2 py-1.5 dark:border-zinc-800 ${
                  why === "context" ? "opacity-75" : why === "result" ? "bg-sky-50 dark:bg-sky-950" : ""
                }`}
              >
                {WHY[why] && <p className="text-xs font-medium text-zinc-700 dark:text-zinc-300">{WHY[why]}</p>}
                <RawLine line={line} href={hrefOf(line.n)} download={downloadOf(line.n)} />
              </li>,
            ];
          }),
        )}
        {!last?.next && gap(hiddenAfter, "gap-end")}
      </ul>
      {pages.hasNextPage && (
        <Button onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {pages.isFetchingNextPage ? "Reading…" : "Read on"}
        </Button>
      )}
    </section>
  );
}
