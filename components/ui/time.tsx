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
export function Time({ iso, className }: { iso: string | null | undefined; className?: string }) {
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const exact = exactMoment(iso);
  const text = formatMoment(iso, inBrowser ? {} : { locale: "en-US", timeZone: "UTC" });
  if (!exact) return <span className={className}>{text}</span>;
  return (
    <time dateTime={exact} title={exact} className={className}>
      {text}
    </time>
  );
}
