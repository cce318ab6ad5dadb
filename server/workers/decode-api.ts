import { workerApi } from "../../lib/chats/worker-api";
import { type DoctorOptions, type DoctorProgress, streamLogsDoctor } from "../../lib/doctor";
import { listRepairable, type Repairable } from "../../lib/repair/problems";
import type { RepairRoots } from "../../lib/repair/targets";
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

  /**
   * The Doctor page's reading of every chat log through (`lib/doctor.ts`), a step per batch of chats: on the
   * server's event loop its walk of 100,000 chat folders and its decoding held every other request.
   */
  doctorLogs(logs: string, home: string | null, options: DoctorOptions): AsyncGenerator<DoctorProgress> {
    return streamLogsDoctor(logs, home, options);
  },

  /** The repairs on offer (`lib/repair`): a look at every chat folder's logs, seconds at 100,000 chats. */
  repairable(roots: RepairRoots): Promise<Repairable[]> {
    return listRepairable(roots);
  },
};

/** The decode worker's functions and their types, for the server's side. */
export type DecodeApi = typeof decodeApi;
