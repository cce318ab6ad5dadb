"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useSourceRouter } from "@/components/shell/source";
import { ActionError } from "@/components/ui/action-error";
import { Button } from "@/components/ui/button";
import { IndexStatusPanel } from "./index-status";
import { SEARCH_PAGE as PAGE, searchQueries } from "./queries";
import { SearchForm } from "./search-form";
import { type SearchParams, searchParamsString } from "./search-params";
import { SearchResults } from "./search-results";

/** The search page's interactive part: the index's state, the form, and the results. */
export function SearchView({ initial }: { initial: SearchParams }) {
  const router = useSourceRouter();
  const [params, setParams] = useState<SearchParams>(initial);
  const [chats, setChats] = useState(PAGE);
  const folders = useQuery(searchQueries.folders());
  const { query } = params;
  const search = useQuery({ ...searchQueries.results(params, chats), placeholderData: keepPreviousData });

  function onSearch(next: SearchParams) {
    setParams(next);
    setChats(PAGE);
    const qs = searchParamsString(next);
    router.replace(qs ? `/search?${qs}` : "/search", { scroll: false });
  }

  const error = search.error instanceof ActionError ? search.error : null;
  const fieldError = error
    ? (Object.entries(error.fieldErrors).map(([field, message]) => ({ field, message }))[0] ?? {
        field: "query",
        message: error.message,
      })
    : null;

  return (
    <div className="space-y-6">
      <IndexStatusPanel />
      <SearchForm initial={initial} folders={folders.data ?? []} error={fieldError} onSearch={onSearch} />
      <section aria-labelledby="results-heading" aria-busy={search.isFetching} className="space-y-3">
        <h2 id="results-heading" className="text-lg font-medium">
          Results
        </h2>
        <div aria-live="polite">
          {!query && <p className="text-zinc-700 dark:text-zinc-300">Type a word or phrase to search every chat.</p>}
          {query && search.isPending && <p>Searching…</p>}
          {search.isError && !error && <p role="alert">{search.error.message}</p>}
        </div>
        {query && search.data && !search.isError && <SearchResults result={search.data} />}
        {query && search.data?.moreChats && (
          <Button onClick={() => setChats((n) => n + PAGE)} disabled={search.isFetching}>
            Show more chats
          </Button>
        )}
      </section>
    </div>
  );
}
