import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { type ErrorData, errorFromData, errorToData } from "../errors";
import { type ChatSummary, type SummarizeOptions, summarizeChat } from "./chat";
import type { ChatLocation } from "./folder";
import { type LogLimits, logLimits, setLogLimits } from "./limits";

/**
 * The chat list's worker threads. Listing a chat is a dozen small system calls
 * (its folder read, its checkpoint and its log's head opened, read and closed)
 * plus a little parsing; on a single thread 10,000 chats cost several times a
 * plain read of the checkpoints (`bench:sessions`). The per-chat work is split
 * across a few threads, each listing whole batches of chats, while the calling
 * thread walks the folder, hands out the batches and writes the output, in the
 * folder's order. Every rule of the single-threaded listing holds unchanged:
 * each thread runs the same `summarizeChat`, with the caller's log limits.
 */

/** What a list thread receives at its start. */
interface ThreadData {
  [MARK]: true;
  options: SummarizeOptions;
  limits: LogLimits;
}
type Reply = { id: number; chats: ChatSummary[] } | { id: number; error: ErrorData };

const MARK = "oda-admin.list-thread";

/**
 * Summarises chats together: each is started before the first is awaited, so
 * the native decodes of their first frames share calls (`zstd/frame-batch.ts`).
 * A chat's files are read with sync calls, several times cheaper than async
 * ones for files this small (bench:sessions); with `sliceMs` the event loop
 * gets a turn whenever that long went by, so a server stays responsive.
 */
export async function summarizeAll(
  locs: ChatLocation[],
  options: SummarizeOptions,
  sliceMs = Number.POSITIVE_INFINITY,
): Promise<ChatSummary[]> {
  const pending: Promise<ChatSummary>[] = [];
  let slice = performance.now();
  for (const loc of locs) {
    const summary = summarizeChat(loc, options);
    // Awaited below with the rest; handled now so a failure is not reported as unhandled meanwhile.
    summary.catch(() => {});
    pending.push(summary);
    if (performance.now() - slice > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  return Promise.all(pending);
}

/**
 * The file a list thread runs: this module itself once bundled (it serves as a
 * thread when started with its mark, see the end of this file), or beside its
 * TypeScript source the `.mjs` that loads it through tsx. `null` when there is
 * no such file (the listing then stays on the calling thread).
 */
export function listThreadFile(): string | null {
  const here = import.meta.url;
  if (!here?.startsWith("file:")) return null;
  // The sibling's URL is built by hand: a bundler would take `new URL("…", import.meta.url)` for an asset.
  const file = fileURLToPath(here.endsWith(".ts") ? here.replace(/[^/]+$/, "list-thread.mjs") : here);
  return existsSync(file) ? file : null;
}

/**
 * How many list threads a listing of `chats` chats is worth. None for a small
 * folder (a thread's start, about a module load, costs more than it saves),
 * and none on a machine whose cores are already busy: the threads then only
 * add their start and the copying of results to the same CPU time
 * (`bench:sessions` on a loaded 2-core machine). Otherwise one per idle core,
 * at most 4. A caller that wants a set number passes it as `ListChatsOptions.threads`
 * instead (the CLI reads `ODA_ADMIN_LIST_THREADS` at its edge, `cli/context.ts` `listThreadsOf`).
 */
export function listThreadCount(chats: number, minChats = 2000): number {
  if (chats < minChats) return 0;
  const idle = Math.floor(availableParallelism() - (loadavg()[0] ?? 0));
  return idle < 1 ? 0 : Math.min(4, idle);
}

/** A few list threads; `summarize` hands a batch to the least busy one. */
export class ListPool {
  private readonly workers: { worker: Worker; busy: number }[] = [];
  private readonly jobs = new Map<number, { end: (c: ChatSummary[]) => void; fail: (e: Error) => void }>();
  private next = 1;
  private failure: Error | null = null;

  constructor(file: string, count: number, options: SummarizeOptions) {
    const data: ThreadData = { [MARK]: true, options, limits: logLimits() };
    for (let i = 0; i < count; i++) {
      const worker = new Worker(file, { workerData: data });
      const slot = { worker, busy: 0 };
      worker.on("message", (reply: Reply) => {
        const job = this.jobs.get(reply.id);
        if (!job) return;
        this.jobs.delete(reply.id);
        slot.busy--;
        if ("error" in reply) job.fail(errorFromData(reply.error));
        else job.end(reply.chats);
      });
      const died = (why: unknown) => this.fail(why instanceof Error ? why : new Error(`A list thread stopped: ${why}`));
      worker.on("error", died);
      worker.on("exit", (code) => {
        if (this.workers.includes(slot)) died(`exit ${code}`);
      });
      this.workers.push(slot);
    }
  }

  /** Every pending batch fails with the error (a thread that died fails the listing, as an error on one thread would). */
  private fail(error: Error): void {
    this.failure ??= error;
    for (const job of this.jobs.values()) job.fail(error);
    this.jobs.clear();
  }

  /** The batch's summaries, in the batch's order, listed on one of the threads. */
  summarize(locs: ChatLocation[]): Promise<ChatSummary[]> {
    if (this.failure) return Promise.reject(this.failure);
    const slot = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.next++;
    slot.busy++;
    const done = new Promise<ChatSummary[]>((end, fail) => this.jobs.set(id, { end, fail }));
    slot.worker.postMessage({ id, locs });
    return done;
  }

  /** Stops the threads. */
  async close(): Promise<void> {
    const slots = this.workers.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

/** A list thread's body: lists each batch it is handed and posts the summaries back. */
function serve(data: ThreadData): void {
  const port = parentPort;
  if (!port) return;
  setLogLimits(data.limits);
  port.on("message", async ({ id, locs }: { id: number; locs: ChatLocation[] }) => {
    try {
      port.postMessage({ id, chats: await summarizeAll(locs, data.options) });
    } catch (error) {
      port.postMessage({ id, error: errorToData(error) });
    }
  });
}

// Started as a list thread (this file, or the bundle holding it): serve. Anywhere else this does nothing.
if (!isMainThread && (workerData as Partial<ThreadData> | null)?.[MARK]) serve(workerData as ThreadData);
