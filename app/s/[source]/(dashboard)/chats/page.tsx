import type { Metadata } from "next";
import { ChatList } from "@/components/chats/chat-list";
import { StorageChats } from "@/components/chats/storage-chats";
import { UsageChats } from "@/components/chats/usage-chats";
import { SearchBox } from "@/components/search/search-box";
import { PageHeader } from "@/components/ui/page-header";
import { readChatsFilter } from "@/lib/insights/links";
import { MISSING_ROOT } from "@/lib/roots";
import { pageSource } from "@/server/source/edge";
import { logFolder } from "@/server/views/chat-list";
import { loadChatsForTotal } from "@/server/views/insights";

export const metadata: Metadata = { title: "Chats" };
export const dynamic = "force-dynamic";

/** Every chat, or (with an Insights total's filter in the URL) the chats that total sums. */
export default async function ChatsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const source = await pageSource();
  const folder = logFolder(source);
  const filter = readChatsFilter(await searchParams);
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
          <ChatList />
        </div>
      )}
    </>
  );
}
