"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSourceInput } from "@/components/shell/source";
import { unwrap } from "@/components/ui/action-error";
import { Button } from "@/components/ui/button";
import { Link } from "@/components/ui/link";
import { MomentText } from "@/components/ui/moment-text";
import { Progress } from "@/components/ui/progress";
import { QueryState } from "@/components/ui/query-state";
import { Time } from "@/components/ui/time";
import { queryKeys } from "@/lib/query-keys";
import { supportPages } from "@/lib/routes";
import { refreshIndexAction } from "@/server/actions/search";
import { useIndexStatus } from "./use-index-status";

/**
 * The search index's state: its freshness sentence, a progress bar while a
 * refresh runs in the background, and a button to refresh it now. Polling
 * starts a refresh by itself when the log folder changed.
 */
export function IndexStatusPanel() {
  const withSource = useSourceInput();
  const client = useQueryClient();
  const [forcing, setForcing] = useState(false);
  // When a refresh ends, the results may have changed: search again.
  const status = useIndexStatus(() => void client.invalidateQueries({ queryKey: queryKeys.search.all }));
  const running = status.data?.job.running ?? false;

  async function refreshNow() {
    setForcing(true);
    try {
      client.setQueryData(queryKeys.search.status(), await unwrap(refreshIndexAction(withSource({}))));
    } catch {
      await status.refetch();
    } finally {
      setForcing(false);
    }
  }

  const data = status.data;
  return (
    <section
      aria-labelledby="index-status-heading"
      className="space-y-3 rounded-md border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="index-status-heading" className="font-medium">
          Search index
        </h2>
        <Button onClick={refreshNow} disabled={running || forcing || !data}>
          {running ? "Refreshing…" : "Refresh index"}
        </Button>
      </div>
      <div aria-live="polite" className="space-y-2 text-sm text-zinc-700 dark:text-zinc-300">
        <QueryState query={status} loading="Reading the index…" />
        {data && (
          <>
            <p>
              {running ? (
                "Refreshing the index in the background; results may be incomplete until it ends."
              ) : (
                <MomentText text={data.freshness.sentence} />
              )}
            </p>
            <p>
              {data.chats.toLocaleString("en")} chats and {data.entries.toLocaleString("en")} searchable entries
              indexed.
            </p>
            {data.freshness.refreshedAt && (
              <p>
                Last refreshed <Time iso={data.freshness.refreshedAt} />.
              </p>
            )}
            {data.leftOut > 0 && (
              <p>
                {data.leftOut.toLocaleString("en")} {data.leftOut === 1 ? "chat or folder" : "chats or folders"} left
                out: the system would not let Oda Admin read {data.leftOut === 1 ? "it" : "them"}.{" "}
                <Link href={supportPages.doctor} className="underline">
                  The Doctor page lists each with what to do
                </Link>
                .
              </p>
            )}
            {data.job.error && <p role="alert">The last refresh failed: {data.job.error}</p>}
            {data.setAside && (
              <p>The previous index file could not be used ({data.setAside.reason}); it was removed and rebuilt.</p>
            )}
          </>
        )}
      </div>
      {running && data && <Progress label="Chats indexed" done={data.job.done} total={data.job.total || null} />}
    </section>
  );
}
