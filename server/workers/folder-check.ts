import "server-only";
import type { Freshness } from "@/lib/search-index";
import { coalesced } from "@/server/workers/coalesce";
import { abandonableInWorker } from "@/server/workers/log-worker";

/**
 * The search index's folder check on the decode worker, coalesced per index and log folder (`coalesce.ts`):
 * the chat list, Home and the search page's status asking at once cost one walk, and one more after it.
 * `signal` is the caller's (the chat list's stream ending, say; `null` never abandons): a check whose callers
 * have all gone stops its walk, or is never started (issue 28). Their promise then rejects; they ignore it.
 */
export const folderCheck: (signal: AbortSignal | null, state: string | null, logDir: string) => Promise<Freshness> =
  coalesced(
    (state: string | null, logDir: string) => `${state ?? ""}\0${logDir}`,
    (signal: AbortSignal, state: string | null, logDir: string) =>
      abandonableInWorker(signal, "indexFreshness", state, logDir),
  );
