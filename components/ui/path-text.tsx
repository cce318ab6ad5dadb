import { Fragment } from "react";

/**
 * A folder path that wraps after its separators (`/`, `\`) rather than inside a
 * name: "/home/ana/Übersetzungen" breaks before "Übersetzungen", never as
 * "Übe rsetzungen". A single name wider than its box still wraps
 * (`overflow-wrap: anywhere`), so nothing overflows.
 */
export function PathText({ path, className = "" }: { path: string; className?: string }) {
  const parts = path.split(/(?<=[/\\])/);
  return (
    <span className={`[overflow-wrap:anywhere] ${className}`}>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one path, in order, never reordered
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </span>
  );
}
