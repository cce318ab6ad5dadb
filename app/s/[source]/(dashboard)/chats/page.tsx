import type { Metadata } from "next";
import { ChatList } from "@/components/chats/chat-list";
import { SearchBox } from "@/components/search/search-box";
import { PageHeader } from "@/components/ui/page-header";
import { logFolder } from "@/server/chat-list";
import { MISSING_ROOT } from "@/server/source/context";
import { pageSource } from "@/server/source/edge";

export const metadata: Metadata = { title: "Chats" };
export const dynamic = "force-dynamic";

export default async function ChatsPage() {
  const folder = logFolder(await pageSource());
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
      {folder && (
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
