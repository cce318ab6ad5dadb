"use client";

import { NO_LOG_FILE, UNUSABLE_LOG } from "@/lib/chats/views";
import { readStarted, startedParam } from "@/lib/insights/started";
import { systemTimeZone } from "@/lib/insights/tz";
import type { ListFilters } from "./list-view";

const FIELD =
  "rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600";

/** The list's find box and filters: working folder, start days, lock state, format, problems only. */
export function ChatListFilters({
  filters,
  onChange,
  groups,
  formats,
}: {
  filters: ListFilters;
  onChange: (next: ListFilters) => void;
  groups: { group: string; label: string }[];
  formats: number[];
}) {
  const set = <K extends keyof ListFilters>(key: K, value: ListFilters[K]) => onChange({ ...filters, [key]: value });
  const days = readStarted(filters.started) ?? { from: null, to: null };
  // A day picked here is a day in this browser's zone, unless the address already names one (an Insights link).
  const setDays = (from: string | null, to: string | null) =>
    onChange({
      ...filters,
      started: from === null && to === null ? "" : startedParam({ from, to }),
      tz: filters.tz || systemTimeZone(),
    });
  return (
    <search aria-label="Find and filter chats" className="flex flex-wrap items-end gap-3">
      <label className="flex flex-col gap-1 text-sm">
        <span>Find by id or title</span>
        <input
          dir="auto"
          type="search"
          value={filters.find}
          onChange={(e) => set("find", e.target.value)}
          className={`${FIELD} w-64 max-w-full`}
        />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span>Working folder</span>
        <select value={filters.group} onChange={(e) => set("group", e.target.value)} className={`${FIELD} max-w-72`}>
          <option value="">All working folders</option>
          {groups.map((g) => (
            <option key={g.group} value={g.group}>
              {g.label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span>Started from</span>
        <input
          type="date"
          value={days.from ?? ""}
          max={days.to ?? undefined}
          onChange={(e) => setDays(e.target.value || null, days.to)}
          className={FIELD}
        />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span>Started to</span>
        <input
          type="date"
          value={days.to ?? ""}
          min={days.from ?? undefined}
          onChange={(e) => setDays(days.from, e.target.value || null)}
          className={FIELD}
        />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span>Lock state</span>
        <select value={filters.lock} onChange={(e) => set("lock", e.target.value)} className={FIELD}>
          <option value="">Any</option>
          <option value="none">Free</option>
          <option value="live">Oda is writing</option>
          <option value="stale">Stale lock</option>
          <option value="unknown">Cannot check</option>
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span>Format</span>
        <select value={filters.format} onChange={(e) => set("format", e.target.value)} className={FIELD}>
          <option value="">Any</option>
          {formats.map((f) => (
            <option key={f} value={String(f)}>
              v{f}
            </option>
          ))}
          <option value={NO_LOG_FILE}>No log file</option>
          <option value={UNUSABLE_LOG}>No usable log</option>
        </select>
      </label>
      <label className="flex items-center gap-2 pb-1.5 text-sm">
        <input
          type="checkbox"
          checked={filters.problemsOnly}
          onChange={(e) => set("problemsOnly", e.target.checked)}
          className="size-4"
        />
        Has problems
      </label>
    </search>
  );
}
