import "server-only";
import { z } from "zod";
import { noteCounts } from "@/lib/notes";
import { indexedFolders, indexStatus, SEARCH_ROLES, searchChats, startIndexRefresh } from "@/lib/search-index";
import { requireLogFolder, requireSourceRoot, type SourceContext } from "@/server/source/context";
import { folderCheck } from "@/server/workers/folder-check";
import { refreshInWorker } from "@/server/workers/index-worker";

// The search page's reads: the results, the index's status and its working folders, each a plain
// function of the request's source, read through GET like every other read.

const ZDate = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, "Use a date such as 2026-11-22.")
  .optional()
  .or(z.literal(""));

export const ZSearch = z.object({
  // The lib refuses a query over 1,000 characters in the app's words; this bound only limits the request.
  query: z.string().max(100_000),
  cwd: z.string().max(4096).optional(),
  role: z.enum(SEARCH_ROLES).optional().or(z.literal("")),
  since: ZDate,
  until: ZDate,
  problems: z.boolean().optional(),
  withNotes: z.boolean().optional(),
  chats: z.number().int().min(1).max(500).optional(),
});

/**
 * The source's log folder and state folder, or the sentence saying what is missing. Not the folder's form:
 * reading the index needs none, so a search reads no `settings.json` (`search-settings.test.ts`).
 */
function indexRoots(ctx: SourceContext) {
  return { logs: requireSourceRoot(ctx, "logs"), state: requireSourceRoot(ctx, "state") };
}

/** Searches the index as it is; the page shows the index's freshness beside the results. */
export function readSearch(ctx: SourceContext, v: z.infer<typeof ZSearch>) {
  const { logs, state } = indexRoots(ctx);
  return searchChats(state, logs, {
    query: v.query,
    cwd: v.cwd || null,
    role: v.role || null,
    since: v.since || null,
    until: v.until || null,
    problems: v.problems ?? false,
    // Only chats with marks or notes (issue 29), from the source's admin state.
    onlyChats: v.withNotes ? [...noteCounts(state).keys()] : null,
    chats: v.chats,
  });
}

/**
 * The index's status and refresh progress. With `when-stale` (the page's
 * polling) a background refresh starts when the folder changed since the last
 * one; `now` starts one anyway (the Refresh button's action). Never waits for
 * it. A refresh writes only the index, in the admin state: never the Oda home
 * or the log folder.
 */
export async function readIndexStatus(ctx: SourceContext, refresh: "when-stale" | "now") {
  const { logs, state } = indexRoots(ctx);
  // The folder check (a walk of every chat folder) on the decode worker: on this thread it held every other
  // request, the search's own results too, for seconds at 100,000 chats.
  const status = await indexStatus(state, logs, () => folderCheck(null, state, logs));
  const stale = !status.freshness.fresh && !status.job.running && !status.job.error;
  if (refresh === "now" || stale) {
    // Only a refresh reads the logs, and judges them against the folder's form.
    const { compress } = requireLogFolder(ctx);
    return (await startIndexRefresh(state, logs, { compress, runner: refreshInWorker })).status;
  }
  return status;
}

/** The working folders of the indexed chats, for the filter. */
export function readIndexFolders(ctx: SourceContext) {
  const { logs, state } = indexRoots(ctx);
  return indexedFolders(state, logs);
}
