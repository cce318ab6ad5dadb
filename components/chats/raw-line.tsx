"use client";

import { useMemo, useState } from "react";
import { Link } from "@/components/ui/link";
import type { LineView } from "@/lib/types";
import { formatCount } from "./format";
import { JsonTree } from "./json-tree";
import { isLongLine, LongLineNote } from "./long-line";

const SHOWN = 2000;

/** The gutter every line has: its number as a link that opens the inspector at it, and its byte offset. */
export function LineGutter({ line, href }: { line: Pick<LineView, "n" | "offset">; href: string }) {
  return (
    <div className="flex shrink-0 flex-col items-end text-xs tabular-nums sm:w-28">
      <Link
        href={href}
        aria-label={`Link to line ${line.n}`}
        className="font-mono text-blue-800 underline-offset-2 hover:underline dark:text-blue-300"
      >
        {formatCount(line.n)}
      </Link>
      <span className="font-mono text-zinc-600 dark:text-zinc-400" title="Byte offset in the decompressed log">
        @{formatCount(line.offset)}
      </span>
    </div>
  );
}

/** One line as stored: numbered, with its offset; JSON pretty-printed on demand; an invalid line marked. */
export function RawLine({ line, href, download }: { line: LineView; href: string; download: string }) {
  const [pretty, setPretty] = useState(false);
  const [tree, setTree] = useState(false);
  const parsed = useMemo(() => {
    if (!tree || line.error) return undefined;
    try {
      return JSON.parse(line.raw) as unknown;
    } catch {
      return undefined;
    }
  }, [tree, line]);
  const [all, setAll] = useState(false);
  const formatted = useMemo(() => {
    if (!pretty || line.error) return null;
    try {
      return JSON.stringify(JSON.parse(line.raw), null, 2);
    } catch {
      return null;
    }
  }, [pretty, line]);
  const text = formatted ?? (all || line.raw.length <= SHOWN ? line.raw : `${line.raw.slice(0, SHOWN)}…`);
  return (
    <div className="flex gap-3">
      <LineGutter line={line} href={href} />
      <div className="min-w-0 flex-1">
        {isLongLine(line) && <LongLineNote line={line} download={download} />}
        {line.error && !isLongLine(line) && (
          <p className="mb-1 text-sm font-medium text-red-800 dark:text-red-300">
            Invalid line: {line.error} (byte offset {formatCount(line.offset)})
          </p>
        )}
        {parsed !== undefined ? (
          <JsonTree value={parsed} label={`JSON tree of line ${line.n}`} />
        ) : (
          <pre className="font-mono text-xs break-all whitespace-pre-wrap">{text}</pre>
        )}
        <div className="mt-0.5 flex gap-3 text-xs">
          {!line.error && (
            <button
              type="button"
              aria-pressed={pretty}
              onClick={() => setPretty((p) => !p)}
              className="text-blue-800 underline dark:text-blue-300"
            >
              {pretty ? "Show as stored" : "Format JSON"}
              <span className="sr-only"> of line {line.n}</span>
            </button>
          )}
          {!line.error && (
            <button
              type="button"
              aria-pressed={tree}
              onClick={() => setTree((t) => !t)}
              className="text-blue-800 underline dark:text-blue-300"
            >
              {tree ? "Hide JSON tree" : "JSON tree"}
              <span className="sr-only"> of line {line.n}</span>
            </button>
          )}
          {!formatted && line.raw.length > SHOWN && (
            <button
              type="button"
              onClick={() => setAll((a) => !a)}
              className="text-blue-800 underline dark:text-blue-300"
            >
              {all ? "Show less" : `Show all ${formatCount(line.raw.length)} characters`}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
