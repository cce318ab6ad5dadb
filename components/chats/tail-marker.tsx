import type { TailReport } from "@/lib/types";
import { formatCount } from "./format";

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
      </div>
    );
  }
  if (counting) return <p className="text-sm text-zinc-600 dark:text-zinc-400">Counting the rest of the log…</p>;
  return null;
}
