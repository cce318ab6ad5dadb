import "server-only";
import type { Freshness } from "@/lib/search-index";
import { coalesced } from "@/server/workers/coalesce";
import { inWorker } from "@/server/workers/log-worker";

/**
 * The search index's folder check on the decode worker, coalesced per index and log folder (`coalesce.ts`):
 * the chat list, Home and the search page's status asking at once cost one walk, and one more after it.
 */
export const folderCheck: (state: string | null, logDir: string) => Promise<Freshness> = coalesced(
  (state: string | null, logDir: string) => `${state ?? ""}\0${logDir}`,
  (state: string | null, logDir: string) => inWorker("indexFreshness", state, logDir),
);
