import { Link } from "@/components/ui/link";
import { type ChatsFilter, describeChatsFilter } from "@/lib/insights/links";
import { chatHref } from "@/lib/routes";
import type { ChatUsage, UsageSums } from "@/lib/types";
import { formatCount, workingFolderLabel } from "./format";

const link = "text-blue-800 underline dark:text-blue-300";

/**
 * The chat list narrowed to the chats an Insights total sums (`?from&to&model&cwd&tz`):
 * the filter in words with a way out, every chat with its tokens in that
 * filter (linked to the lines they come from), and their sum to check
 * against the total that linked here.
 */
export function UsageChats({
  filter,
  chats,
  totals,
}: {
  filter: ChatsFilter;
  chats: ChatUsage[];
  totals: UsageSums & { chats: number };
}) {
  return (
    <section aria-labelledby="usage-chats-h" className="space-y-4">
      <h2 id="usage-chats-h" className="sr-only">
        Chats in an Insights total
      </h2>
      <p className="flex flex-wrap items-baseline gap-x-3 rounded-md border border-blue-700 bg-blue-50 p-3 text-blue-950 dark:bg-blue-950 dark:text-blue-100">
        <span>{describeChatsFilter(filter)}</span>
        <Link href="/chats" className="font-medium underline">
          Clear filter
        </Link>
      </p>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Only the lines in this filter are counted, as Insights counts them: messages with a readable time, on these
        days, of this model and folder.
      </p>
      <p className="font-medium">
        {totals.chats === 0
          ? "No chat has messages in this filter."
          : `${formatCount(totals.chats)} ${totals.chats === 1 ? "chat" : "chats"}: ${formatCount(totals.inputTokens)} input and ${formatCount(totals.outputTokens)} output tokens (${formatCount(totals.totalTokens)} in all) over ${formatCount(totals.messages)} messages.`}
      </p>
      {chats.length > 0 && (
        <div
          // biome-ignore lint/a11y/noNoninteractiveTabindex: lets keyboard users scroll a long table (axe: scrollable-region-focusable)
          tabIndex={0}
          className="overflow-auto focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <table className="w-full border-collapse text-sm">
            <caption className="mb-2 text-left text-zinc-700 dark:text-zinc-300">
              Chats in this filter, most tokens first
            </caption>
            <thead>
              <tr className="border-b border-zinc-300 dark:border-zinc-700">
                <th scope="col" className="px-2 py-1 text-left font-medium">
                  Chat
                </th>
                <th scope="col" className="px-2 py-1 text-left font-medium">
                  Working folder
                </th>
                {["Messages", "Input tokens", "Output tokens", "Total tokens"].map((h) => (
                  <th key={h} scope="col" className="px-2 py-1 text-right font-medium">
                    {h}
                  </th>
                ))}
                <th scope="col" className="px-2 py-1 text-left font-medium">
                  Models
                </th>
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
                  <td className="px-2 py-1 text-right tabular-nums">{formatCount(c.messages)}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{formatCount(c.inputTokens)}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{formatCount(c.outputTokens)}</td>
                  <td className="px-2 py-1 text-right tabular-nums">
                    <Link href={`${chatHref(c.id, { view: "raw" })}&usage=1`} className={link}>
                      {formatCount(c.totalTokens)}
                      <span className="sr-only">: the lines they come from</span>
                    </Link>
                  </td>
                  <td className="px-2 py-1">{c.modelsUsed.join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
