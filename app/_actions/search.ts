"use server";

import { z } from "zod";
import { indexedFolders, indexStatus, SEARCH_ROLES, searchChats, startIndexRefresh } from "@/lib/index";
import { readCompressSetting } from "@/lib/sessions";
import { runAction } from "@/server/action";
import { refreshInWorker } from "@/server/index-worker";
import { requireLogs, serverRoots } from "@/server/roots";

const ZDate = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, "Use a date such as 2026-11-22.")
  .optional()
  .or(z.literal(""));
const ZSearch = z.object({
  query: z.string().max(1000),
  cwd: z.string().max(4096).optional(),
  role: z.enum(SEARCH_ROLES).optional().or(z.literal("")),
  since: ZDate,
  until: ZDate,
  problems: z.boolean().optional(),
  chats: z.number().int().min(1).max(500).optional(),
});
const ZStatus = z.object({ refresh: z.enum(["never", "when-stale", "now"]).default("when-stale") });

/** The server's log folder and state folder, or the sentence saying what is missing. */
function indexRoots() {
  const logs = requireLogs();
  const { home, state } = serverRoots();
  return { logs, state, compress: readCompressSetting(home) };
}

/** Searches the index as it is; the page shows the index's freshness beside the results. */
export async function searchAction(input: unknown) {
  return runAction(ZSearch, input, async (v) => {
    const { logs, state } = indexRoots();
    return searchChats(state, logs, {
      query: v.query,
      cwd: v.cwd || null,
      role: v.role || null,
      since: v.since || null,
      until: v.until || null,
      problems: v.problems ?? false,
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
  return runAction(ZStatus, input, async ({ refresh }) => {
    const { logs, state, compress } = indexRoots();
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
  return runAction(z.object({}), input, async () => {
    const { logs, state } = indexRoots();
    return indexedFolders(state, logs);
  });
}
