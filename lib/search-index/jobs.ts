import { type IndexHandle, reopenIndex } from "./db";
import { type RefreshResult, refreshIndex } from "./refresh";

/**
 * Refreshes running in the background of a long-lived process (the server):
 * one job per index file at a time, its progress readable while it runs. The
 * registry lives on `globalThis` so every bundle of the server shares it.
 */

/** A refresh job's state, plain data. */
export interface RefreshJob {
  running: boolean;
  /** Changed chats re-read so far, and to re-read. */
  done: number;
  total: number;
  startedAt: string | null;
  finishedAt: string | null;
  result: RefreshResult | null;
  error: string | null;
}

/**
 * Runs one refresh, reporting progress; a server passes one that runs it on a
 * worker thread with its own connection (`server/workers/index-worker.ts`), so reading
 * logs never holds up its event loop. The default runs it in this thread.
 */
export type RefreshRunner = (
  handle: IndexHandle,
  options: { compress?: boolean; onProgress: (done: number, total: number) => void },
) => Promise<RefreshResult>;

const inThisThread: RefreshRunner = (handle, options) => refreshIndex(handle, options);

interface Entry {
  job: RefreshJob;
  promise: Promise<RefreshResult> | null;
}

const KEY = Symbol.for("oda-admin.index-jobs");
const registry: Map<string, Entry> = ((globalThis as Record<symbol, unknown>)[KEY] as Map<string, Entry>) ?? new Map();
(globalThis as Record<symbol, unknown>)[KEY] = registry;

const idle = (): RefreshJob => ({
  running: false,
  done: 0,
  total: 0,
  startedAt: null,
  finishedAt: null,
  result: null,
  error: null,
});

/** The job of an index (idle when none ran in this process). */
export function jobStatus(handle: IndexHandle): RefreshJob {
  return { ...(registry.get(handle.path)?.job ?? idle()) };
}

/**
 * Starts a refresh unless one is running for this index; returns at once with
 * the job's state. `wait` gives the promise of the (running or new) refresh.
 */
export function startRefresh(
  handle: IndexHandle,
  options: { compress?: boolean; runner?: RefreshRunner } = {},
): { job: RefreshJob; wait: Promise<RefreshResult> } {
  const known = registry.get(handle.path);
  if (known?.job.running && known.promise) return { job: { ...known.job }, wait: known.promise };
  const entry: Entry = {
    job: { ...idle(), running: true, startedAt: new Date().toISOString() },
    promise: null,
  };
  registry.set(handle.path, entry);
  const run = options.runner ?? inThisThread;
  entry.promise = run(handle, {
    compress: options.compress,
    onProgress: (done, total) => {
      entry.job.done = done;
      entry.job.total = total;
    },
  }).then(
    (result) => {
      // Another connection set the damaged file aside and built a new one: this one still reads the old file.
      if (result.setAside && result.setAside.path !== handle.setAside?.path) reopenIndex(handle, result.setAside);
      Object.assign(entry.job, { running: false, finishedAt: new Date().toISOString(), result });
      return result;
    },
    (error: unknown) => {
      Object.assign(entry.job, {
        running: false,
        finishedAt: new Date().toISOString(),
        error: (error as Error).message,
      });
      throw error;
    },
  );
  // A failed background refresh is reported through the job; nobody may be awaiting it.
  entry.promise.catch(() => {});
  return { job: { ...entry.job }, wait: entry.promise };
}
