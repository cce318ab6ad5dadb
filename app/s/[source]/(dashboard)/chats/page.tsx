import type { Metadata } from "next";
import { createLoader } from "nuqs/server";
import { ChatList } from "@/components/chats/chat-list";
import { filtersOf, PARAMS } from "@/components/chats/list-params";
import { StorageChats } from "@/components/chats/storage-chats";
import { UsageChats } from "@/components/chats/usage-chats";
import { SearchBox } from "@/components/search/search-box";
import { Prefetch } from "@/components/shell/prefetch";
import { PageHeader } from "@/components/ui/page-header";
import { windowInput, windowRead } from "@/lib/chats/list-window";
import { readChatsFilter } from "@/lib/insights/links";
import { queryKeys } from "@/lib/query-keys";
import { MISSING_ROOT } from "@/lib/roots";
import { pageSource } from "@/server/source/edge";
import { logFolder } from "@/server/views/chat-list";
import { loadChatsForTotal } from "@/server/views/insights";

export const metadata: Metadata = { title: "Chats" };
export const dynamic = "force-dynamic";

const loadListParams = createLoader(PARAMS);

/**
 * The list's first window, read into the HTML when the URL sets no filter (then it comes from the index's own
 * indexes, whatever the listing): the first rows show before the page's scripts have asked for anything.
 */
function firstWindow(params: Record<string, string | string[] | undefined>) {
  const q = loadListParams(params);
  const input = windowInput(
    { view: null, sort: { key: q.sort, dir: q.dir }, grouped: q.grouped, filters: filtersOf(q) },
    () => "",
  );
  return input
    ? [{ queryKey: queryKeys.sessions.window(input, 0), meta: { read: "chats.window", input: windowRead(input, 0) } }]
    : [];
}

/** Every chat, or (with an Insights total's filter in the URL) the chats that total sums. */
export default async function ChatsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const source = await pageSource();
  const folder = logFolder(source);
  const params = await searchParams;
  const filter = readChatsFilter(params);
  const total = folder && filter ? await loadChatsForTotal(source, filter) : null;
  return (
    <>
      <PageHeader
        title="Chats"
        description={
          folder ? (
            <>
              Every chat under <span className="font-mono break-all">{folder.logDir}</span>, grouped by working folder.
            </>
          ) : (
            MISSING_ROOT.logs
          )
        }
      />
      {total &&
        (total.ok ? (
          total.kind === "bytes" ? (
            <StorageChats filter={total.filter} chats={total.result.chats} totals={total.result.totals} />
          ) : (
            <UsageChats filter={total.filter} chats={total.result.chats} totals={total.result.totals} />
          )
        ) : (
          <p role="alert">{total.message}</p>
        ))}
      {folder && !total && (
        <div className="space-y-6">
          <div className="max-w-xl">
            <SearchBox id="chats-search" />
          </div>
          <Prefetch queries={firstWindow(params)}>
            <ChatList />
          </Prefetch>
        </div>
      )}
    </>
  );
}
