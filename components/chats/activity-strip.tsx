"use client";

import { useEffect, useId, useRef, useState } from "react";
import { useSourceHref } from "@/components/shell/source";
import { Button } from "@/components/ui/button";
import { chatDataHref } from "@/lib/routes";
import type { ActivityBucket, ActivityItem, ActivityStrip as Strip } from "@/lib/types";
import { countOf, formatBytes, formatCount } from "./format";

type Read =
  | { state: "reading"; bytes: number; lines: number }
  | { state: "done"; strip: Strip }
  | { state: "failed"; message: string };

/** Reads the strip's NDJSON: progress while the server reads the log, then the strip. */
function useActivity(id: string, generation: string): Read {
  const toSource = useSourceHref();
  const href = toSource(chatDataHref(id, "activity", { generation }));
  const [read, setRead] = useState<Read>({ state: "reading", bytes: 0, lines: 0 });
  useEffect(() => {
    const abort = new AbortController();
    setRead({ state: "reading", bytes: 0, lines: 0 });
    (async () => {
      const response = await fetch(href, { signal: abort.signal, cache: "no-store" });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(body?.error?.message ?? `The chat's activity could not be read (${response.status}).`);
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let carry = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        carry += value;
        let at = carry.indexOf("\n");
        while (at >= 0) {
          const item = JSON.parse(carry.slice(0, at)) as ActivityItem | { type: "error"; error: { message: string } };
          carry = carry.slice(at + 1);
          at = carry.indexOf("\n");
          if (item.type === "progress") setRead({ state: "reading", bytes: item.bytes, lines: item.lines });
          else if (item.type === "strip") setRead({ state: "done", strip: item.strip });
          else throw new Error(item.error.message);
        }
      }
    })().catch((error: unknown) => {
      if (!abort.signal.aborted) setRead({ state: "failed", message: (error as Error).message });
    });
    return () => abort.abort();
  }, [href]);
  return read;
}

const DAY = 86_400_000;

/** An interval's start as the reader's clock shows it (date alone for intervals of a day or more). */
function timeText(ms: number, width: number): string {
  const options: Intl.DateTimeFormatOptions =
    width >= DAY
      ? { year: "numeric", month: "short", day: "numeric" }
      : { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" };
  return new Intl.DateTimeFormat("en", options).format(ms);
}

function widthText(width: number): string {
  if (width >= DAY) return countOf(width / DAY, "day");
  if (width >= 3_600_000) return countOf(width / 3_600_000, "hour");
  return countOf(width / 60_000, "minute");
}

/** One interval in words, as the slider's value and the table's row say it. */
function bucketText(b: ActivityBucket, width: number): string {
  const parts = [countOf(b.messages, "message"), countOf(b.tokens, "token")];
  if (b.problems) parts.push(countOf(b.problems, "problem line"));
  return `${timeText(b.start, width)}: ${parts.join(", ")}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The chat's activity at a glance, above the log: messages (bars), tokens (the lower bars) and problem lines
 * (red marks) per interval, computed by the server in one pass. A click (or Enter on an interval) jumps to
 * its first line; a drag (or Shift with the arrows, then Enter) filters the log to that time range.
 */
export function ActivityStrip({
  id,
  generation,
  range,
  onJump,
  onRange,
}: {
  id: string;
  generation: string;
  /** The time filter in the address (ISO times), shown on the strip. */
  range: { after?: string; before?: string };
  onJump: (line: number) => void;
  onRange: (range: { after: string; before: string } | null) => void;
}) {
  const read = useActivity(id, generation);
  const captionId = useId();
  const [cursor, setCursor] = useState(0);
  const [anchor, setAnchor] = useState<number | null>(null);
  const drag = useRef<{ from: number; moved: boolean } | null>(null);
  const strip = read.state === "done" ? read.strip : null;
  const buckets = strip?.buckets ?? [];
  const width = strip?.width ?? 1;
  const n = buckets.length;
  useEffect(() => {
    // Start on the interval the address's range begins in, else the first.
    if (!strip?.buckets.length) return;
    const after = range.after ? Date.parse(range.after) : Number.NaN;
    const i = strip.buckets.findIndex((b) => b.start + strip.width > after);
    setCursor(Number.isFinite(after) && i >= 0 ? i : 0);
  }, [strip, range.after]);

  if (read.state === "failed")
    return (
      <p role="alert" className="text-sm">
        Activity over time: {read.message}
      </p>
    );
  if (read.state === "reading")
    return (
      // The strip's place is kept while the log is read (caption, slider, legend and the table's line come to
      // 8.25rem when each caption and line fits on one row), so the log below does not move down when the strip
      // arrives: a big log's strip comes seconds after the first screen, maybe after End showed the last line.
      <div className="min-h-33 space-y-1">
        <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
          Reading the chat&apos;s activity…
          {read.bytes > 0 && ` ${formatBytes(read.bytes)} and ${countOf(read.lines, "line")} read so far.`}
        </p>
        <div aria-hidden="true" className="h-16 rounded-md border border-dashed border-zinc-200 dark:border-zinc-800" />
      </div>
    );
  if (!strip || n === 0)
    return (
      <p className="text-sm text-zinc-700 dark:text-zinc-300">Activity over time: no line of this log has a time.</p>
    );

  const maxMessages = Math.max(1, ...buckets.map((b) => b.messages));
  const maxTokens = Math.max(1, ...buckets.map((b) => b.tokens));
  const totals = buckets.reduce(
    (t, b) => ({ messages: t.messages + b.messages, tokens: t.tokens + b.tokens, problems: t.problems + b.problems }),
    { messages: 0, tokens: 0, problems: 0 },
  );
  const filterFrom = range.after ? Date.parse(range.after) : null;
  const filterTo = range.before ? Date.parse(range.before) : null;
  const inFilter = (b: ActivityBucket) =>
    (filterFrom !== null || filterTo !== null) &&
    (filterFrom === null || b.start + width > filterFrom) &&
    (filterTo === null || b.start < filterTo);
  const sel = anchor === null ? null : ([Math.min(anchor, cursor), Math.max(anchor, cursor)] as const);
  const current = buckets[Math.min(cursor, n - 1)] as ActivityBucket;
  const jumpFrom = (i: number) => {
    // An empty interval jumps to the next one with lines.
    const b = buckets.slice(i).find((x) => x.lines > 0) ?? buckets.findLast((x) => x.lines > 0);
    if (b) onJump(b.firstLine);
  };
  const filterTo_ = (a: number, z: number) => {
    const lo = buckets[Math.min(a, z)] as ActivityBucket;
    const hi = buckets[Math.max(a, z)] as ActivityBucket;
    onRange({ after: iso(lo.start), before: iso(hi.start + width) });
  };
  const indexAt = (clientX: number, el: HTMLElement) => {
    const box = el.getBoundingClientRect();
    return Math.max(0, Math.min(n - 1, Math.floor(((clientX - box.left) / Math.max(1, box.width)) * n)));
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    const move = (to: number) => {
      e.preventDefault();
      if (e.shiftKey && anchor === null) setAnchor(cursor);
      if (!e.shiftKey) setAnchor(null);
      setCursor(Math.max(0, Math.min(n - 1, to)));
    };
    if (e.key === "ArrowRight" || e.key === "ArrowUp") move(cursor + 1);
    else if (e.key === "ArrowLeft" || e.key === "ArrowDown") move(cursor - 1);
    else if (e.key === "PageUp") move(cursor + 10);
    else if (e.key === "PageDown") move(cursor - 10);
    else if (e.key === "Home") move(0);
    else if (e.key === "End") move(n - 1);
    else if (e.key === "Enter") {
      e.preventDefault();
      if (sel && sel[0] !== sel[1]) filterTo_(sel[0], sel[1]);
      else jumpFrom(cursor);
      setAnchor(null);
    } else if (e.key === "Escape" && anchor !== null) {
      e.preventDefault();
      setAnchor(null);
    }
  };
  const summary = `${countOf(totals.messages, "message")} and ${countOf(totals.tokens, "token")} from ${timeText(
    (buckets[0] as ActivityBucket).start,
    width,
  )} to ${timeText((buckets[n - 1] as ActivityBucket).start + width, width)}, in intervals of ${widthText(width)}; ${countOf(
    totals.problems + strip.before.problems,
    "problem line",
  )}.${strip.before.lines ? ` ${countOf(strip.before.lines, "line")} before the first time are on no interval.` : ""}`;

  return (
    <figure aria-labelledby={captionId} className="space-y-1">
      <figcaption id={captionId} className="flex flex-wrap items-baseline gap-x-3 text-sm">
        <span className="font-medium">Activity over time</span>
        <span className="text-zinc-700 dark:text-zinc-300">{summary}</span>
        {(range.after || range.before) && <Button onClick={() => onRange(null)}>Clear time range</Button>}
      </figcaption>
      <div
        role="slider"
        tabIndex={0}
        aria-label="Activity over time: arrows move, Enter jumps to the interval, Shift with the arrows selects a range and Enter filters the log to it"
        aria-valuemin={1}
        aria-valuemax={n}
        aria-valuenow={cursor + 1}
        aria-valuetext={`${bucketText(current, width)}${sel && sel[0] !== sel[1] ? `; ${sel[1] - sel[0] + 1} intervals selected` : ""}`}
        onKeyDown={onKeyDown}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture?.(e.pointerId);
          const i = indexAt(e.clientX, e.currentTarget);
          drag.current = { from: i, moved: false };
          setAnchor(i);
          setCursor(i);
        }}
        onPointerMove={(e) => {
          if (!drag.current) return;
          const i = indexAt(e.clientX, e.currentTarget);
          if (i !== drag.current.from) drag.current.moved = true;
          setCursor(i);
        }}
        onPointerUp={(e) => {
          const d = drag.current;
          drag.current = null;
          if (!d) return;
          const i = indexAt(e.clientX, e.currentTarget);
          setAnchor(null);
          setCursor(i);
          if (d.moved && i !== d.from) filterTo_(d.from, i);
          else jumpFrom(i);
        }}
        className="relative h-16 cursor-crosshair touch-none rounded-md border border-zinc-200 select-none focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-800"
      >
        <svg
          aria-hidden="true"
          viewBox={`0 0 ${n * 10} 64`}
          preserveAspectRatio="none"
          className="absolute inset-0 h-full w-full"
        >
          {buckets.map((b, i) => {
            const mh = (b.messages / maxMessages) * 34;
            const th = (b.tokens / maxTokens) * 18;
            const picked = sel ? i >= sel[0] && i <= sel[1] : false;
            return (
              <g key={b.start}>
                {(picked || inFilter(b)) && (
                  <rect x={i * 10} y={0} width={10} height={64} className="fill-amber-200 dark:fill-amber-900" />
                )}
                {i === cursor && (
                  <rect x={i * 10} y={0} width={10} height={64} className="fill-blue-100 dark:fill-blue-950" />
                )}
                <rect x={i * 10 + 1} y={40 - mh} width={8} height={mh} className="fill-zinc-600 dark:fill-zinc-300" />
                <rect x={i * 10 + 1} y={62 - th} width={8} height={th} className="fill-blue-700 dark:fill-blue-400" />
                {b.problems > 0 && <rect x={i * 10} y={0} width={10} height={4} className="fill-red-600" />}
              </g>
            );
          })}
        </svg>
      </div>
      <p className="flex flex-wrap gap-x-3 text-xs text-zinc-700 dark:text-zinc-300">
        <span>Upper bars: messages. Lower bars: tokens. Red marks: problem lines.</span>
        <span aria-live="polite">{bucketText(current, width)}</span>
      </p>
      <details className="text-sm">
        <summary className="cursor-pointer">Activity as a table</summary>
        <div
          // biome-ignore lint/a11y/noNoninteractiveTabindex: lets keyboard users scroll a long table (axe: scrollable-region-focusable)
          tabIndex={0}
          className="max-h-64 overflow-auto"
        >
          <table className="w-full border-collapse text-sm">
            <caption className="text-left text-zinc-700 dark:text-zinc-300">
              Activity per interval of {widthText(width)} (intervals with lines)
            </caption>
            <thead>
              <tr className="border-b border-zinc-300 dark:border-zinc-700">
                <th scope="col" className="px-2 py-1 text-left font-medium">
                  From
                </th>
                {["Messages", "Tokens", "Problem lines"].map((h) => (
                  <th key={h} scope="col" className="px-2 py-1 text-right font-medium">
                    {h}
                  </th>
                ))}
                <th scope="col" className="px-2 py-1 text-left font-medium">
                  First line
                </th>
              </tr>
            </thead>
            <tbody>
              {buckets
                .filter((b) => b.lines > 0)
                .map((b) => (
                  <tr key={b.start} className="border-b border-zinc-100 dark:border-zinc-800">
                    <th scope="row" className="px-2 py-1 text-left font-normal">
                      {timeText(b.start, width)}
                    </th>
                    <td className="px-2 py-1 text-right tabular-nums">{formatCount(b.messages)}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{formatCount(b.tokens)}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{formatCount(b.problems)}</td>
                    <td className="px-2 py-1">
                      <button
                        type="button"
                        onClick={() => onJump(b.firstLine)}
                        className="text-blue-800 underline dark:text-blue-300"
                      >
                        Go to line {formatCount(b.firstLine)}
                      </button>
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
