"use server";

import { z } from "zod";
import { indexedFolders, indexStatus, SEARCH_ROLES, searchChats, startIndexRefresh } from "@/lib/index";
import { noteCounts } from "@/lib/notes";
import { runAction } from "@/server/action";
import { refreshInWorker } from "@/server/index-worker";
import { requireLogFolder, requireSourceRoot, type SourceContext } from "@/server/source/context";

const ZDate = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, "Use a date such as 2026-11-22.")
  .optional()
  .or(z.literal(""));
const ZSearch = z.object({
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
const ZStatus = z.object({ refresh: z.enum(["never", "when-stale", "now"]).default("when-stale") });

/** The source's log folder (and its form) and state folder, or the sentence saying what is missing. */
function indexRoots(ctx: SourceContext) {
  const { logDir, compress } = requireLogFolder(ctx);
  return { logs: logDir, state: requireSourceRoot(ctx, "state"), compress };
}

/** Searches the index as it is; the page shows the index's freshness beside the results. */
export async function searchAction(input: unknown) {
  return runAction(ZSearch, input, async (v, ctx) => {
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
  });
}

/**
 * The index's status and refresh progress. With `when-stale` (the page's
 * polling) a background refresh starts when the folder changed since the last
 * one; `now` starts one anyway (the Refresh button). Never waits for it.
 */
export async function indexStatusAction(input: unknown) {
  return runAction(ZStatus, input, async ({ refresh }, ctx) => {
    const { logs, state, compress } = indexRoots(ctx);
    const status = await indexStatus(state, logs);
    const stale = !status.freshness.fresh && !status.job.running && !status.job.error;
    if (refresh === "now" || (refresh === "when-stale" && stale)) {
      return (await startIndexRefresh(state, logs, { compress, runner: refreshInWorker })).status;
    }
    return status;
  });
}

/** The working folders of the indexed chats, for the filter. */
export async function indexFoldersAction(input: unknown) {
  return runAction(z.object({}), input, async (_input, ctx) => {
    const { logs, state } = indexRoots(ctx);
    return indexedFolders(state, logs);
  });
}
