"use client";

import { useEffect, useRef } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { parseGroupName } from "@/lib/chats/names";
import { describeStartedDays, readStarted } from "@/lib/insights/started";
import { systemTimeZone } from "@/lib/insights/tz";
import { type ListFilters, startedRange } from "./list-view";

/**
 * The start-day filter in words, with a way out: "Chats started on 2026-10-25 in /work/a (days in
 * Europe/Berlin)", the filter an Insights "Chats started" or "Chats per working folder" count links to. A day
 * typed into the address without a zone is put in this browser's, which the address then names.
 */
export function StartedNote({ filters, onChange }: { filters: ListFilters; onChange: (next: ListFilters) => void }) {
  const days = readStarted(filters.started);
  const latest = useRef({ filters, onChange });
  latest.current = { filters, onChange };
  const needsZone = days !== null && !filters.tz;
  useEffect(() => {
    if (needsZone) latest.current.onChange({ ...latest.current.filters, tz: systemTimeZone() });
  }, [needsZone]);
  if (!days) return null;
  const range = startedRange(filters);
  if (range && "error" in range)
    return (
      <Alert tone="error">
        {range.error} No chat is shown for the days it names.{" "}
        <Button onClick={() => onChange({ ...filters, started: "", tz: "" })}>Clear start days</Button>
      </Alert>
    );
  const group = filters.group ? parseGroupName(filters.group) : null;
  const where = group ? (group.cwd === null ? " with no working folder" : ` in ${group.cwd}`) : "";
  return (
    <p className="flex flex-wrap items-baseline gap-x-3 gap-y-2 rounded-md border border-blue-700 bg-blue-50 p-3 text-blue-950 dark:bg-blue-950 dark:text-blue-100">
      <span>
        Chats started {describeStartedDays(days)}
        {where} (days in {filters.tz || "this browser's time zone"})
      </span>
      <Button onClick={() => onChange({ ...filters, started: "", tz: "" })}>Clear start days</Button>
    </p>
  );
}
