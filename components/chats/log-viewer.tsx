// biome-ignore-all lint/a11y/useSemanticElements: virtualised lines are absolutely positioned divs; role=list/listitem gives them list semantics

"use client";

import { useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useSourceHref, useSourceRouter } from "@/components/shell/source";
import { VirtualRow } from "@/components/ui/virtual-row";
import { chatHref, lineDownloadHref, queryString } from "@/lib/routes";
import type { LinesView, LineView } from "@/lib/types";
import { ActivityStrip } from "./activity-strip";
import { ConversationLine } from "./conversation-line";
import { countOf, formatBytes, formatCount } from "./format";
import { linesQuery, statusQuery } from "./log-data";
import { FilterBar, FilteredLog, type FilterParams, filtering, filterParamsOf } from "./log-filter";
import { LogToolbar } from "./log-toolbar";
import { NotesPanel, notesQuery, useAddNote } from "./notes-panel";
import { PAGE, pageStart } from "./paging";
import { RawLine } from "./raw-line";
import { TailMarker } from "./tail-marker";
import { toolPairs } from "./tool-pairs";
import { useEndHold } from "./use-end-hold";
import { useLogGrowth } from "./use-log-growth";
import { useLogKeys } from "./use-log-keys";

/** At most this many lines sit in the scroller at once (browsers cap an element's height); jumps move the window. */
const WINDOW = 400_000;

function windowBase(line: number, count: number): number {
  if (count <= WINDOW) return 0;
  return Math.max(0, Math.min(line - 1 - WINDOW / 2, count - WINDOW));
}

/** True when row `index` of the virtual list is rendered and wholly inside the scroll pane. */
function lineOnScreen(pane: Element | null, index: number): boolean {
  const row = pane?.querySelector(`[data-index="${index}"]`);
  if (!pane || !row) return false;
  const outer = pane.getBoundingClientRect();
  const inner = row.getBoundingClientRect();
  return inner.top >= outer.top && inner.bottom <= outer.bottom;
}

/**
 * One log, of any size: a virtualised list over the server's line index,
 * fetching pages of lines around the viewport; raw or conversation view; jump,
 * end, next error, find; follow mode polls the log's status every second and
 * refreshes the page's details (lines, messages, last activity, checkpoint) as
 * the log grows. `copy` reads one copy of a chat stored in two places.
 */
export function LogViewer({
  id,
  generation,
  label,
  initialPage,
  initialLine,
  initialView,
  syncUrl,
  canFollow,
  copy,
}: {
  id: string;
  generation: string;
  label: string;
  initialPage: LinesView;
  initialLine: number | null;
  initialView: "raw" | "conversation";
  syncUrl: boolean;
  canFollow: boolean;
  copy?: number;
}) {
  const qc = useQueryClient();
  const router = useSourceRouter();
  const toSource = useSourceHref();
  const firstPage = initialPage.lines[0]?.n ?? 1;
  useState(() => qc.setQueryData(linesQuery(id, generation, pageStart(firstPage), copy).queryKey, initialPage));
  const [view, setView] = useState(initialView);
  const [follow, setFollow] = useState(false);
  const [selected, setSelected] = useState<number | null>(initialLine);
  const [message, setMessage] = useState("");
  const [query, setQuery] = useState("");
  const search = useSearchParams();
  const [filter, setFilter] = useState<FilterParams>(() => (syncUrl ? filterParamsOf(search) : {}));
  // The filter the address holds now, for writeUrl: set at once when it changes, before any re-render.
  const filterRef = useRef(filter);
  const status = useQuery(statusQuery(id, generation, follow, copy));
  const total = status.data?.lines ?? initialPage.total;
  const tail = status.data?.tail ?? initialPage.tail;
  const lastKnown = initialPage.lines[initialPage.lines.length - 1]?.n ?? 0;
  const count = total ?? Math.max(lastKnown, selected ?? 0);
  const [base, setBase] = useState(() => windowBase(initialLine ?? 1, count));
  const shown = Math.max(0, Math.min(count - base, WINDOW));
  const atEnd = base + shown >= count;
  const marker = atEnd && (total === null || (tail && tail.state !== "complete") || Boolean(status.data?.error));
  const scrollRef = useRef<HTMLDivElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: shown + (marker ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (view === "raw" ? 44 : 72),
    overscan: 8,
    getItemKey: (i) => (i < shown ? base + i + 1 : "end"),
    // At the bottom, rows that grow (measured, or their line loaded after "Loading line…") keep the view at
    // the bottom instead of pushing the last lines out of it: End and follow stay at the end however late
    // the last page arrives.
    anchorTo: "end",
  });
  const items = virtualizer.getVirtualItems();
  const pages = useMemo(() => {
    const starts = new Set<number>();
    for (const v of items) if (v.index < shown) starts.add(pageStart(base + v.index + 1));
    return [...starts].sort((a, b) => a - b);
  }, [items, base, shown]);
  const results = useQueries({ queries: pages.map((from) => linesQuery(id, generation, from, copy)) });
  const tools = toolPairs(results.map((r) => r.data));
  const byLine = new Map<number, LineView>();
  let pageError: string | null = null;
  for (const r of results) {
    for (const l of r.data?.lines ?? []) byLine.set(l.n, l);
    if (r.error) pageError = r.error.message;
    else if (r.data?.error) pageError = r.data.error;
  }

  /** To the very bottom; the virtualiser retargets while rows are measured, and `anchorTo` keeps it there. */
  const scrollToEnd = useCallback(() => virtualizer.scrollToEnd(), [virtualizer]);
  const { held: endHeld, hold: holdEnd, letGo } = useEndHold(scrollRef, scrollToEnd);

  useLogGrowth({ id, generation, copy, total }, (before, now) => {
    if (!follow) return;
    setMessage(`${countOf(now - before, "new line")}; ${formatCount(now)} in all.`);
    setBase(windowBase(now, now));
    scrollToEnd();
    // The details above (lines, messages, last activity, checkpoint) are the server's: read them again.
    router.refresh();
  });

  const writeUrl = useCallback(
    (line: number | null, v: "raw" | "conversation", f: FilterParams = filterRef.current) => {
      // This page's own address (whatever source it is under), with the line, the view and the filter.
      if (syncUrl)
        window.history.replaceState(
          null,
          "",
          `${window.location.pathname}${queryString({ line: line ?? undefined, view: v, generation, ...f })}`,
        );
    },
    [syncUrl, generation],
  );

  const [pendingScroll, setPendingScroll] = useState<number | null>(initialLine);
  const place = useCallback(
    (n: number, lines: number, scroll: boolean) => {
      // A jump lets go of End's hold (End itself holds again after its jump).
      letGo();
      const line = Math.max(1, lines ? Math.min(n, lines) : n);
      setSelected(line);
      setBase(windowBase(line, lines));
      if (scroll) setPendingScroll(line);
      writeUrl(line, view);
    },
    [view, writeUrl, letGo],
  );
  const { refetch: refetchStatus } = status;
  const jumpTo = useCallback(
    (n: number, scroll = true) => {
      if (total === null || n <= total) return place(n, count, scroll);
      // A live log grew since its line count was read (Find next or Next error found a newer line):
      // read the count again, so the viewer holds that line before it is selected, shown and put in the URL.
      void refetchStatus().then((r) => place(n, Math.max(count, r.data?.lines ?? 0), scroll));
    },
    [total, count, place, refetchStatus],
  );
  const targetLoaded = pendingScroll !== null && byLine.has(pendingScroll);
  useEffect(() => {
    if (pendingScroll === null) return;
    const index = pendingScroll - 1 - base;
    if (index < 0 || index >= shown) return;
    virtualizer.scrollToIndex(index, { align: "center" });
    // The line is centred in the pane; the pane itself must be on screen too, not below a long header.
    sectionRef.current?.scrollIntoView({ block: "nearest" });
    if (!targetLoaded) return;
    // Once its page has arrived, the rows around it are measured at their real heights over the next frames
    // (each measurement moves the rows below it): centre it again until it stays on screen, then stop.
    let frame = 0;
    let tries = 0;
    const settle = () => {
      virtualizer.scrollToIndex(index, { align: "center" });
      if (lineOnScreen(virtualizer.scrollElement, index) || ++tries > 60) setPendingScroll(null);
      else frame = requestAnimationFrame(settle);
    };
    frame = requestAnimationFrame(settle);
    return () => cancelAnimationFrame(frame);
  }, [pendingScroll, base, shown, virtualizer, targetLoaded]);

  // A link to a line of this page (a filtered line's number opens it in the whole log): follow the address.
  // Only a change of the address moves the viewer: the latest jumpTo and selection are read through a ref.
  const urlLine = syncUrl ? Number(search.get("line")) || null : null;
  const urlFilter = syncUrl ? JSON.stringify(filterParamsOf(search)) : "{}";
  const latest = useRef({ jumpTo, selected });
  latest.current = { jumpTo, selected };
  useEffect(() => {
    const f = JSON.parse(urlFilter) as FilterParams;
    filterRef.current = f;
    setFilter((now) => (JSON.stringify(now) === urlFilter ? now : f));
    if (urlLine !== null && !filtering(f) && urlLine !== latest.current.selected) latest.current.jumpTo(urlLine);
  }, [urlLine, urlFilter]);
  const current = selected ?? (items[0] ? base + items[0].index + 1 : 1);
  const hrefOf = (n: number) => chatHref(id, { line: n, view, generation });
  const onFollow = (on: boolean) => {
    setFollow(on);
    setMessage(on ? "Following: new lines appear as Oda writes them." : "Stopped following.");
  };
  const onEnd = () => {
    jumpTo(count, false);
    scrollToEnd();
    // The pane starts below the chat's header and details, so its bottom (the last line) can sit below the
    // window's: bring it into view too, and keep both while what is above the pane or in it settles.
    scrollRef.current?.scrollIntoView({ block: "nearest" });
    holdEnd();
  };
  // End pressed while the log was still being counted went to the last line read so far: when the count
  // arrives (or grows) while End holds, End goes to the new last line (following does that on its own).
  const latestEnd = useRef(onEnd);
  latestEnd.current = onEnd;
  const heldCount = useRef(count);
  useEffect(() => {
    const before = heldCount.current;
    heldCount.current = count;
    if (endHeld && !follow && count !== before) latestEnd.current();
  }, [count, endHeld, follow]);
  const addNote = useAddNote(id, generation, setMessage);
  const notes = useQuery({ ...notesQuery(id, toSource), enabled: copy === undefined });
  const marked = new Set(
    (notes.data ?? []).filter((n) => n.state === "kept" && n.generation === generation).map((n) => n.line),
  );
  useLogKeys({
    onMark: () => {
      if (copy === undefined) addNote.mutate({ line: current, text: "" });
    },
    id,
    generation,
    current,
    query,
    canFollow,
    follow,
    onFollow,
    onJump: (n) => jumpTo(total === null ? n : Math.min(n, total)),
    onEnd,
    onMessage: setMessage,
    // This page's own address (whatever source it is under) with the line in it.
    linkOf: (n) =>
      new URL(`${window.location.pathname}${queryString({ line: n, view, generation, copy })}`, window.location.href)
        .href,
  });
  const countText =
    total === null
      ? `${formatCount(lastKnown)}+ lines so far; counting the rest…`
      : `${formatCount(total)} lines · ${formatBytes(status.data?.decompressedBytes ?? null)} decompressed`;

  return (
    <section ref={sectionRef} aria-label={label} className="scroll-mt-2 space-y-2">
      <LogToolbar
        id={id}
        generation={generation}
        view={view}
        onView={(v) => {
          setView(v);
          writeUrl(selected, v);
        }}
        count={total}
        current={current}
        follow={follow}
        onFollow={onFollow}
        canFollow={canFollow}
        onJump={jumpTo}
        onGo={(n) => {
          // A line past the end is not silently swapped for the last one: say why nothing moved.
          if (total !== null && n > total)
            setMessage(`Line ${formatCount(n)} does not exist: this log has ${countOf(total, "line")}.`);
          else jumpTo(n);
        }}
        onEnd={onEnd}
        onMessage={setMessage}
        onQuery={setQuery}
      />
      {syncUrl && copy === undefined && (
        // On a phone the log starts on the first screen: the strip is shown from the small breakpoint up.
        <div className="hidden sm:block">
          <ActivityStrip
            id={id}
            generation={generation}
            range={{ after: filter.after, before: filter.before }}
            onJump={(n) => {
              // The place in the whole log: a filter that hides it is cleared first.
              if (filtering(filterRef.current)) {
                filterRef.current = {};
                setFilter({});
              }
              jumpTo(n);
              setMessage(`Line ${formatCount(n)}.`);
            }}
            onRange={(r) => {
              const { after: _a, before: _b, ...rest } = filterRef.current;
              const f = r ? { ...rest, ...r } : rest;
              filterRef.current = f;
              setFilter(f);
              writeUrl(filtering(f) ? null : selected, view, f);
            }}
          />
        </div>
      )}
      {/* One row for both, so the log's first lines stay on a phone's first screen. */}
      <div className="flex flex-wrap items-start gap-2">
        <FilterBar
          key={JSON.stringify(filter)}
          id={id}
          generation={generation}
          params={filter}
          onChange={(f) => {
            filterRef.current = f;
            setFilter(f);
            writeUrl(filtering(f) ? null : selected, view, f);
          }}
        />
        {copy === undefined && (
          <NotesPanel id={id} generation={generation} current={current} hrefOf={hrefOf} onMessage={setMessage} />
        )}
      </div>
      <div className="flex flex-wrap justify-between gap-2 text-sm text-zinc-700 dark:text-zinc-300">
        <span>{countText}</span>
        <span aria-live="polite">{message}</span>
      </div>
      {pageError && (
        <p role="alert" className="rounded border-l-4 border-red-600 bg-red-50 p-2 text-sm dark:bg-red-950">
          {pageError}
        </p>
      )}
      {base > 0 && (
        <p className="text-sm">Lines before {formatCount(base + 1)} are not in the scroller: jump to see them.</p>
      )}
      {filtering(filter) && (
        <FilteredLog
          id={id}
          generation={generation}
          label={label}
          params={filter}
          hrefOf={hrefOf}
          downloadOf={(n) => lineDownloadHref(id, n, generation)}
        />
      )}
      <div
        ref={scrollRef}
        hidden={filtering(filter)}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroller must be reachable by keyboard
        tabIndex={0}
        role="region"
        aria-label={`Lines of ${label}`}
        onKeyDown={(e) => {
          // End and Home go by line, as the toolbar's buttons do: the pane holds a window of a long log, and
          // its rows below the fold are only estimated, so the browser's own End stops short of the last line.
          if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
          if (e.key !== "End" && e.key !== "Home") return;
          e.preventDefault();
          if (e.key === "End") onEnd();
          else jumpTo(1);
        }}
        className="relative h-[calc(100dvh-11rem)] min-h-72 overflow-auto rounded-md border border-zinc-200 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-800"
      >
        <div role="list" className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((v) => {
            const n = base + v.index + 1;
            const line = v.index < shown ? byLine.get(n) : undefined;
            return (
              <VirtualRow
                key={v.key}
                item={v}
                measure={virtualizer.measureElement}
                role="listitem"
                aria-current={n === selected ? "true" : undefined}
                className={`border-b border-zinc-100 px-2 py-1.5 dark:border-zinc-800 ${
                  n === selected ? "bg-amber-100 dark:bg-amber-950" : ""
                } ${marked.has(n) ? "border-l-4 border-l-amber-500" : ""}`}
              >
                {marked.has(n) && <span className="sr-only">Marked line. </span>}
                {v.index >= shown ? (
                  <TailMarker tail={tail} counting={total === null} error={status.data?.error ?? null} />
                ) : !line ? (
                  <p className="text-xs text-zinc-600 dark:text-zinc-400">Loading line {formatCount(n)}…</p>
                ) : view === "raw" ? (
                  <RawLine line={line} href={hrefOf(n)} download={toSource(lineDownloadHref(id, n, generation))} />
                ) : (
                  <ConversationLine
                    line={line}
                    href={hrefOf(n)}
                    download={toSource(lineDownloadHref(id, n, generation))}
                    tools={tools}
                    hrefOf={hrefOf}
                  />
                )}
              </VirtualRow>
            );
          })}
        </div>
      </div>
      {!atEnd && (
        <p className="text-sm">Lines after {formatCount(base + shown)} are not in the scroller: jump to see them.</p>
      )}
      <p className="sr-only">Lines are fetched {PAGE} at a time as you scroll.</p>
    </section>
  );
}
