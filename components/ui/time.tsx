"use client";

import { useSyncExternalStore } from "react";
import { exactMoment, formatMoment } from "@/lib/dates";

const noSubscription = () => () => {};

/**
 * A moment in the reader's locale and time zone, named, with the exact ISO time
 * on hover. The server cannot know the reader's zone, so the server render and
 * the hydration render show it in UTC (the same text on both sides: no
 * hydration mismatch), and the browser switches to its own zone right after.
 */
/** True once rendered in the browser (false on the server and in the hydration render). */
function useInBrowser(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * `formatMoment` as `<Time>` shows a moment, for text that cannot hold an element (an `<option>`, a
 * label passed as a string): UTC on the server and at hydration, the reader's zone after.
 */
export function useMomentFormat(): (iso: string | null | undefined) => string {
  const inBrowser = useInBrowser();
  return (iso) => formatMoment(iso, inBrowser ? {} : { locale: "en-US", timeZone: "UTC" });
}

export function Time({ iso, className }: { iso: string | null | undefined; className?: string }) {
  const inBrowser = useInBrowser();
  const exact = exactMoment(iso);
  const text = formatMoment(iso, inBrowser ? {} : { locale: "en-US", timeZone: "UTC" });
  if (!exact) return <span className={className}>{text}</span>;
  return (
    <time dateTime={exact} title={exact} className={className}>
      {text}
    </time>
  );
}
