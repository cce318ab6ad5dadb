import { workerApi } from "../../lib/chats/worker-api";
import { type DoctorOptions, type DoctorProgress, streamLogsDoctor } from "../../lib/doctor";
import { chatsOfProblems, chatsRepairable, type Repairable } from "../../lib/repair/problems";
import type { RepairRoots } from "../../lib/repair/targets";
import { checkIndexFreshness, type Freshness } from "../../lib/search-index";

/** A step of the Doctor's reading of the logs, with the repairs on offer for its chats (null: none offered here). */
export interface DoctorLogsStep extends DoctorProgress {
  repairable: Repairable[] | null;
}

/**
 * What the server's decode worker (`server/workers/decode-thread.mjs`) runs: the log
 * reads of `lib/chats/worker-api.ts`, and the chat list's check of the
 * search index against the log folder (a walk of every chat folder and a few
 * stats per chat: 100,000 chats keep a thread busy for seconds), so the
 * server's event loop only sends the index's rows and the verdict.
 */
export const decodeApi = {
  ...workerApi,

  /**
   * `lib/search-index`'s folder check, on this thread's own connection to the index; `cancelled` (the flag of
   * `abandonableInWorker`) stops it when nobody waits for it any more.
   */
  indexFreshness(state: string | null, logDir: string, cancelled?: () => boolean): Promise<Freshness> {
    return checkIndexFreshness(state, logDir, cancelled);
  },

  /**
   * The Doctor page's reading of every chat log through (`lib/doctor.ts`), a step per batch of chats: on the
   * server's event loop its walk of 100,000 chat folders and its decoding held every other request. With
   * `repairs`, each step carries the repairs on offer for the chats its problems name, looked up by id
   * (`chatsRepairable`): a listing of every chat's repairs held the first problem for a minute.
   */
  async *doctorLogs(
    logs: string,
    home: string | null,
    options: DoctorOptions,
    repairs: RepairRoots | null = null,
  ): AsyncGenerator<DoctorLogsStep> {
    for await (const step of streamLogsDoctor(logs, home, options)) {
      const chats = repairs && step.problems.length ? chatsOfProblems(step.problems.map((p) => p.path)) : [];
      yield { ...step, repairable: repairs ? (chats.length ? chatsRepairable(repairs, chats) : []) : null };
    }
  },
};

/** The decode worker's functions and their types, for the server's side. */
export type DecodeApi = typeof decodeApi;
