// biome-ignore-all lint/a11y/useSemanticElements: virtualised rows are absolutely positioned; ARIA table roles on divs keep the semantics that <table> loses once its display changes
// biome-ignore-all lint/a11y/useFocusableInteractive: rows and headers are not widgets here (a read-only table, not a grid); the links and sort buttons inside them take focus

"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { FixButton } from "@/components/repairs/fix-button";
import { useShortcuts } from "@/components/shell/shortcuts";
import { useSourceHref, useSourceRouter } from "@/components/shell/source";
import { Badge } from "@/components/ui/badge";
import { Link } from "@/components/ui/link";
import { PathText } from "@/components/ui/path-text";
import { Time } from "@/components/ui/time";
import { VirtualRow } from "@/components/ui/virtual-row";
import { chatHref } from "@/lib/routes";
import type { ChatRow } from "@/lib/types";
import { countOf, formatBytes, formatCount, formatLabel, lockLabel, workingFolderLabel } from "./format";
import type { ListItems, Sort, SortKey } from "./list-view";
import { ProblemList } from "./problem-list";

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: "title", label: "Title" },
  { key: "folder", label: "Working folder" },
  { key: "lastActivity", label: "Last activity" },
  { key: "messages", label: "Messages" },
  { key: "tokens", label: "Tokens" },
  { key: "format", label: "Format" },
  { key: "lock", label: "Lock" },
  { key: "problems", label: "Problems" },
];

// Below lg the columns fold into the row, each cell under its own small label (NARROW), so a phone shows the lock
// and the problems without scrolling sideways.
const COLS = "lg:grid-cols-[minmax(14rem,2.2fr)_minmax(10rem,1.4fr)_11rem_5.5rem_6rem_5.5rem_9rem_7rem]";
const GRID = `grid grid-cols-1 gap-y-1 ${COLS} lg:gap-x-3 lg:gap-y-0`;
const WIDE = "lg:min-w-[68rem]";

/**
 * A cell's column name, shown only where the columns fold into the row. It is drawn by CSS from a data
 * attribute, so it is not part of the cell's text (its value stays what a reader and a test see), and it
 * is hidden from assistive technology, which already names the cell by its column header.
 */
function NarrowLabel({ children }: { children: string }) {
  return (
    <span
      aria-hidden="true"
      data-label={`${children}:`}
      className="mr-1 text-xs font-medium text-zinc-600 before:content-[attr(data-label)] lg:hidden dark:text-zinc-400"
    />
  );
}
const LOCK_TONE = { none: "neutral", live: "info", stale: "danger", unknown: "warning" } as const;

/** The cached label: the details came from the checkpoint; how far behind the log it is. */
function CachedLabel({ row }: { row: ChatRow }) {
  if (!row.cached) return null;
  return (
    <span title={row.cacheReason}>
      <Badge tone="info">
        cached{row.cacheState === "behind" ? ` · ${formatBytes(row.behindBytes)} behind the log` : ""}
      </Badge>
    </span>
  );
}

function ChatCells({ row, grouped }: { row: ChatRow; grouped: boolean }) {
  const problems = row.problems.length;
  return (
    <>
      <div role="cell" className="min-w-0">
        <Link
          href={chatHref(row.id)}
          className="font-medium break-words text-blue-800 underline-offset-2 hover:underline dark:text-blue-300"
        >
          {row.title ?? row.id}
        </Link>
        <div className="flex flex-wrap items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400">
          <span className="font-mono break-all">{row.id}</span>
          <CachedLabel row={row} />
          {row.notes ? (
            <span title={countOf(row.notes, "note")} data-testid="notes-marker">
              <Badge tone="info">
                <span aria-hidden="true">✎ {row.notes}</span>
                <span className="sr-only">{countOf(row.notes, "note")}</span>
              </Badge>
            </span>
          ) : null}
        </div>
      </div>
      {/* Grouped, the folder is the heading above the row: below lg it would repeat it on every row. */}
      <div role="cell" className={`min-w-0 text-xs ${grouped ? "max-lg:sr-only" : ""}`}>
        <NarrowLabel>Working folder</NarrowLabel>
        <PathText path={workingFolderLabel(row.cwd)} className="font-mono" />
      </div>
      <div role="cell">
        <NarrowLabel>Last activity</NarrowLabel>
        <Time iso={row.lastActivity} />
      </div>
      <div role="cell" className="tabular-nums lg:text-right">
        <NarrowLabel>Messages</NarrowLabel>
        {formatCount(row.messages)}
      </div>
      <div role="cell" className="tabular-nums lg:text-right">
        <NarrowLabel>Tokens</NarrowLabel>
        {formatCount(row.tokens)}
      </div>
      <div role="cell">
        <NarrowLabel>Format</NarrowLabel>
        {formatLabel(row.format, row.compressed)}
      </div>
      <div role="cell" title={row.lock.reason}>
        <NarrowLabel>Lock</NarrowLabel>
        <Badge tone={LOCK_TONE[row.lock.state]}>{lockLabel(row.lock.state)}</Badge>
      </div>
      <div role="cell" className={problems ? "col-span-full mt-1 rounded bg-red-50 p-2 dark:bg-red-950/60" : ""}>
        {problems ? (
          <>
            <Badge tone="danger">{countOf(problems, "problem")}</Badge>
            <ProblemList problems={row.problems} label={`Problems of chat ${row.id}`} />
            {row.problems.some((p) => p.kind === "form") && (
              <FixButton
                target={{ kind: "form", chat: row.id }}
                name={`Fix chat ${row.id}`}
                title="Convert this chat's log?"
              />
            )}
          </>
        ) : (
          <span className="text-zinc-600 dark:text-zinc-400">
            <NarrowLabel>Problems</NarrowLabel>none
          </span>
        )}
      </div>
    </>
  );
}

/** The virtualised chat table: sortable headers, working-folder headings, one row per chat. */
export function ChatTable({
  items,
  sort,
  onSort,
  grouped,
  onRange,
}: {
  items: ListItems;
  sort: Sort;
  onSort: (key: SortKey) => void;
  grouped: boolean;
  /** Told the first and last items drawn (those in view and the few around them) when they change. */
  onRange?: (first: number, last: number) => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const router = useSourceRouter();
  const inSource = useSourceHref();
  // The row `j`/`k` are on (an index into `items`, a chat row, never a heading).
  const [cursor, setCursor] = useState<number | null>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (items.isGroup(i) ? 36 : 56),
    overscan: 12,
    // The first rows are drawn on the server too (the first window comes with the HTML): a table 560 px high,
    // the 70% of an 800 px window it is there. In the browser the table's own size takes over.
    initialRect: { width: 1024, height: 560 },
    // Asked for every item at each layout (100,000 and more): made without making the item.
    getItemKey: (i) => items.keyAt(i),
  });
  const drawn = virtualizer.getVirtualItems();
  const firstDrawn = drawn[0]?.index ?? 0;
  const lastDrawn = drawn.at(-1)?.index ?? 0;
  useEffect(() => onRange?.(firstDrawn, lastDrawn), [onRange, firstDrawn, lastDrawn]);
  const move = (step: 1 | -1) => {
    let i = cursor === null ? (step === 1 ? -1 : items.length) : cursor;
    for (i += step; i >= 0 && i < items.length; i += step) {
      if (items.at(i)?.type === "chat") {
        setCursor(i);
        virtualizer.scrollToIndex(i, { align: "auto" });
        return;
      }
    }
  };
  // Home and End go by index, not by the scroll height: rows below the fold are only estimated (56 px), so
  // the browser's own End lands where the estimate ends, thousands of rows short of the last at 100,000.
  // After End the table stays at its end while the rows there are read and drawn: a row read in place of its
  // estimate is taller or shorter, which moved the last row out of view. A wheel, a touch or another key lets go.
  const [atEnd, setAtEnd] = useState(false);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "End") setAtEnd(false);
    if (event.altKey || event.metaKey || event.shiftKey || !items.length) return;
    if (event.key !== "End" && event.key !== "Home") return;
    event.preventDefault();
    setAtEnd(event.key === "End");
    virtualizer.scrollToIndex(event.key === "End" ? items.length - 1 : 0, {
      align: event.key === "End" ? "end" : "start",
    });
  };
  useEffect(() => {
    if (atEnd && items.length) virtualizer.scrollToIndex(items.length - 1, { align: "end" });
  }, [atEnd, items, virtualizer]);
  const cursorRow = cursor === null ? undefined : items.at(cursor);
  const cursorHref = cursorRow?.type === "chat" ? chatHref(cursorRow.row.id) : null;
  useShortcuts("Chat list", [
    { keys: "j", label: "Next chat", run: () => move(1) },
    { keys: "k", label: "Previous chat", run: () => move(-1) },
    { keys: "Enter", label: "Open the chat", run: () => cursorHref && router.push(cursorHref) },
    {
      keys: "o",
      label: "Open the chat in a new tab",
      run: () => cursorHref && window.open(inSource(cursorHref), "_blank", "noopener"),
    },
  ]);
  return (
    <div
      ref={scrollRef}
      role="table"
      aria-label="Chats"
      aria-rowcount={items.length + 1}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrollable table must be reachable by keyboard
      tabIndex={0}
      onKeyDown={onKeyDown}
      onWheel={() => setAtEnd(false)}
      onPointerDown={() => setAtEnd(false)}
      onTouchStart={() => setAtEnd(false)}
      className="relative h-[70vh] min-h-80 overflow-auto rounded-md border border-zinc-200 text-sm focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-800"
    >
      <div role="rowgroup" className={`sticky top-0 z-10 ${WIDE} bg-zinc-100 dark:bg-zinc-900`}>
        <div
          role="row"
          aria-rowindex={1}
          className={`flex flex-wrap gap-x-3 gap-y-1 px-3 py-2 font-medium lg:grid ${COLS}`}
        >
          {COLUMNS.map((c) => {
            const active = sort.key === c.key;
            return (
              <div
                key={c.key}
                role="columnheader"
                aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : "none"}
              >
                <button
                  type="button"
                  onClick={() => onSort(c.key)}
                  className="rounded px-0.5 text-left hover:underline focus-visible:outline-2 focus-visible:outline-blue-600"
                >
                  {c.label}
                  <span aria-hidden="true">{active ? (sort.dir === "asc" ? " ▲" : " ▼") : ""}</span>
                </button>
              </div>
            );
          })}
        </div>
      </div>
      <div role="rowgroup" className={`relative ${WIDE}`} style={{ height: virtualizer.getTotalSize() }}>
        {drawn.map((v) => {
          const item = items.at(v.index);
          if (!item) return null;
          if (item.type === "group") {
            return (
              <VirtualRow
                key={v.key}
                item={v}
                measure={virtualizer.measureElement}
                role="row"
                aria-rowindex={v.index + 2}
                className="border-t border-zinc-300 bg-zinc-50 px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900/60"
              >
                <div role="cell" aria-colspan={COLUMNS.length} className="font-mono text-xs font-semibold">
                  <PathText path={item.label} />{" "}
                  <span className="font-sans font-normal">· {countOf(item.count, "chat")}</span>
                </div>
              </VirtualRow>
            );
          }
          if (item.type === "pending") {
            return (
              <VirtualRow
                key={v.key}
                item={v}
                measure={virtualizer.measureElement}
                role="row"
                aria-rowindex={v.index + 2}
                aria-busy="true"
                className="h-14 border-t border-zinc-200 px-3 py-2 text-zinc-500 dark:border-zinc-800 dark:text-zinc-400"
              >
                <div role="cell" aria-colspan={COLUMNS.length}>
                  Not listed yet
                </div>
              </VirtualRow>
            );
          }
          const bad = item.row.problems.length > 0;
          return (
            <VirtualRow
              key={v.key}
              item={v}
              measure={virtualizer.measureElement}
              role="row"
              aria-rowindex={v.index + 2}
              aria-current={v.index === cursor ? "true" : undefined}
              className={`${GRID} items-start border-t border-zinc-200 px-3 py-2 dark:border-zinc-800 ${
                bad ? "border-l-4 border-l-red-600" : ""
              } ${v.index === cursor ? "bg-amber-100 dark:bg-amber-950" : ""}`}
            >
              <ChatCells row={item.row} grouped={grouped} />
            </VirtualRow>
          );
        })}
      </div>
    </div>
  );
}
