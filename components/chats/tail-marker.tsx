import type { TailReport } from "@/lib/types";
import { countOf, formatCount } from "./format";

/** `bytes` as hex-dump rows: the offset in the line, 16 bytes in hex, and their printable ASCII. */
function hexRows(bytes: Uint8Array, start: number): string[] {
  const rows: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const chunk = bytes.subarray(at, at + 16);
    const hex = [...chunk].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    const ascii = [...chunk].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
    rows.push(`${(start + at).toString(16).padStart(8, "0")}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return rows;
}

/** The unfinished line's first bytes, in hex and as text (what a person needs to judge what was being written). */
function TailBytes({ tail }: { tail: TailReport }) {
  if (!tail.head) return null;
  const bytes = Uint8Array.from(atob(tail.head), (c) => c.charCodeAt(0));
  const all = bytes.length >= tail.pendingBytes;
  return (
    <details className="mt-1 text-zinc-900 dark:text-zinc-100">
      <summary className="cursor-pointer text-xs font-medium">
        {all
          ? `Its ${countOf(bytes.length, "byte")}, in hex and as text`
          : `Its first ${countOf(bytes.length, "byte")} of ${formatCount(tail.pendingBytes)}, in hex and as text`}
      </summary>
      <p className="mt-1 text-xs">In hex:</p>
      <pre className="mt-1 overflow-x-auto font-mono text-xs">{hexRows(bytes, 0).join("\n")}</pre>
      <p className="mt-1 text-xs">As text:</p>
      <pre className="mt-1 font-mono text-xs break-all whitespace-pre-wrap">
        {new TextDecoder("utf-8", { fatal: false }).decode(bytes)}
      </pre>
    </details>
  );
}

/** The end of a log: still being counted, decoding stopped at damaged data, or an unfinished tail at its offset. */
export function TailMarker({
  tail,
  counting,
  error,
}: {
  tail: TailReport | null;
  counting: boolean;
  error: string | null;
}) {
  if (error) return <p className="text-sm font-medium text-red-800 dark:text-red-300">{error}</p>;
  if (tail && tail.state !== "complete") {
    return (
      <div className="text-sm text-red-800 dark:text-red-300">
        <p className="font-medium">
          Unfinished tail
          {tail.offset !== null ? ` at byte ${formatCount(tail.offset)}` : ""}
          {tail.frameOffset !== null ? ` (cut zstd frame at file byte ${formatCount(tail.frameOffset)})` : ""}
        </p>
        {tail.message && <p className="break-all">{tail.message}</p>}
        <TailBytes tail={tail} />
      </div>
    );
  }
  if (counting) return <p className="text-sm text-zinc-600 dark:text-zinc-400">Counting the rest of the log…</p>;
  return null;
}
