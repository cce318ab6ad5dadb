import type { LineView } from "@/lib/types";
import { formatBytes, formatCount } from "./format";

/**
 * The note on a line over the line limit: the server sent only its head, so
 * the page says how long it is and offers the whole line as a download.
 */
export function LongLineNote({ line, download }: { line: LineView & { length: number }; download: string }) {
  return (
    <p className="mb-1 text-sm font-medium text-amber-900 dark:text-amber-200">
      Line {formatCount(line.n)} is {formatBytes(line.length)} long ({formatCount(line.length)} bytes); shown truncated.{" "}
      <a href={download} download className="text-blue-800 underline dark:text-blue-300">
        Download line {formatCount(line.n)}
      </a>
    </p>
  );
}

/** True for a line the server sent truncated. */
export function isLongLine(line: LineView): line is LineView & { length: number } {
  return line.length !== undefined;
}
