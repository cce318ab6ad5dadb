import { Link } from "@/components/ui/link";
import { type ChatsFilter, describeChatsFilter } from "@/lib/insights/links";
import { formatBytes } from "@/lib/insights/tables";
import { chatHref } from "@/lib/routes";
import type { ChatStorageRow, StorageSums } from "@/lib/types";
import { countOf, formatCount, workingFolderLabel } from "./format";

const link = "text-blue-800 underline dark:text-blue-300";
const COLUMNS = ["Total bytes", "Current log", "Older generations", "Checkpoints", "Locks"] as const;

/**
 * The chat list narrowed to the chats an Insights storage total sums (`?sum=bytes&cwd=`): the filter in words
 * with a way out, every chat with its bytes on disk (exact, as the storage table gives them), and their sum to
 * check against the total that linked here.
 */
export function StorageChats({
  filter,
  chats,
  totals,
}: {
  filter: ChatsFilter;
  chats: ChatStorageRow[];
  totals: StorageSums;
}) {
  return (
    <section aria-labelledby="storage-chats-h" className="space-y-4">
      <h2 id="storage-chats-h" className="sr-only">
        Chats in an Insights storage total
      </h2>
      <p className="flex flex-wrap items-baseline gap-x-3 rounded-md border border-blue-700 bg-blue-50 p-3 text-blue-950 dark:bg-blue-950 dark:text-blue-100">
        <span>{describeChatsFilter(filter)}</span>
        <Link href="/chats" className="font-medium underline">
          Clear filter
        </Link>
      </p>
      <p className="font-medium">
        {totals.chats === 0
          ? "No chat is in this filter."
          : `${countOf(totals.chats, "chat")} take ${formatCount(totals.totalBytes)} bytes (${formatBytes(totals.totalBytes)}) on disk.`}
      </p>
      {chats.length > 0 && (
        <div
          // biome-ignore lint/a11y/noNoninteractiveTabindex: lets keyboard users scroll a long table (axe: scrollable-region-focusable)
          tabIndex={0}
          className="overflow-auto focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <table className="w-full border-collapse text-sm">
            <caption className="mb-2 text-left text-zinc-700 dark:text-zinc-300">
              Chats in this filter, most bytes first
            </caption>
            <thead>
              <tr className="border-b border-zinc-300 dark:border-zinc-700">
                <th scope="col" className="px-2 py-1 text-left font-medium">
                  Chat
                </th>
                <th scope="col" className="px-2 py-1 text-left font-medium">
                  Working folder
                </th>
                {COLUMNS.map((h) => (
                  <th key={h} scope="col" className="px-2 py-1 text-right font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {chats.map((c) => (
                <tr key={c.id} className="border-b border-zinc-100 dark:border-zinc-800">
                  <th scope="row" className="px-2 py-1 text-left font-normal break-all">
                    <Link href={chatHref(c.id)} className={link}>
                      {c.title ?? c.id}
                    </Link>
                  </th>
                  <td className="px-2 py-1 break-all">{workingFolderLabel(c.cwd)}</td>
                  {[c.totalBytes, c.currentBytes, c.olderBytes, c.checkpointBytes, c.lockBytes].map((v, i) => (
                    <td key={COLUMNS[i]} className="px-2 py-1 text-right tabular-nums">
                      {formatCount(v)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
