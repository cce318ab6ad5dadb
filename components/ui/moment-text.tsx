import { Fragment } from "react";
import { Time } from "./time";

/** An ISO 8601 moment with a time and a zone, as the lib's sentences carry them (`2026-12-02T00:57:17.364Z`). */
const ISO_MOMENT = /(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))/;

/**
 * A sentence from the lib (a problem, the index's freshness) as a page shows
 * it: each ISO moment in it becomes a `<Time>`, the one way the pages show a
 * moment (the exact ISO time on hover). The CLI prints the same sentence with
 * the ISO time as it is; only the page formats it.
 */
export function MomentText({ text }: { text: string }) {
  const parts = text.split(ISO_MOMENT);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) =>
        // split() with one group: the odd parts are the moments
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one sentence, in order, never reordered
        i % 2 === 1 ? <Time key={i} iso={part} /> : <Fragment key={i}>{part}</Fragment>,
      )}
    </>
  );
}
