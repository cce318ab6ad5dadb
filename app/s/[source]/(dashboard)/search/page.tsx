import type { Metadata } from "next";
import { SEARCH_PAGE, searchQueries } from "@/components/search/queries";
import { readSearchParams } from "@/components/search/search-params";
import { SearchView } from "@/components/search/search-view";
import { Prefetch } from "@/components/shell/prefetch";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Search" };
export const dynamic = "force-dynamic";

/** Find anything in any chat, through the search index in the state folder. */
export default async function SearchPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const initial = readSearchParams(await searchParams);
  return (
    <div>
      <PageHeader
        title="Search"
        description="Find which chat mentioned something: every message, tool call and memory line of every chat."
      />
      {/* Not the index's status: it compares the index with the log folder (seconds at 100,000 chats), and the
          page waited for it before showing a search that takes milliseconds. The panel reads it in the browser.
          The URL's search is read here, so its results come with the HTML, not after the scripts ask for them. */}
      <Prefetch
        queries={[
          searchQueries.folders(),
          ...(initial.query.trim() ? [searchQueries.results(initial, SEARCH_PAGE)] : []),
        ]}
      >
        <SearchView initial={initial} />
      </Prefetch>
    </div>
  );
}
