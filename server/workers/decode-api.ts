import { workerApi } from "../../lib/chats/worker-api";
import { checkIndexFreshness, type Freshness } from "../../lib/search-index";

/**
 * What the server's decode worker (`server/workers/decode-thread.mjs`) runs: the log
 * reads of `lib/chats/worker-api.ts`, and the chat list's check of the
 * search index against the log folder (a walk of every chat folder and a few
 * stats per chat: 100,000 chats keep a thread busy for seconds), so the
 * server's event loop only sends the index's rows and the verdict.
 */
export const decodeApi = {
  ...workerApi,

  /** `lib/search-index`'s folder check, on this thread's own connection to the index. */
  indexFreshness(state: string | null, logDir: string): Promise<Freshness> {
    return checkIndexFreshness(state, logDir);
  },
};

/** The decode worker's functions and their types, for the server's side. */
export type DecodeApi = typeof decodeApi;
