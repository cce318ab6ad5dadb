import "server-only";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { type ErrorData, errorFromData, OdaError } from "@/lib/errors";
import { sources } from "@/server/source/registry";
import type { DecodeApi } from "@/server/workers/decode-api";

/**
 * The main thread's side of the decode worker (`server/workers/decode-thread.mjs`): one
 * worker thread per server process, started on first use, that runs the
 * reads of `lib/chats/worker-api.ts`. Jobs share it and take turns (the
 * decoder gives its event loop a turn every few milliseconds). A worker that
 * dies (out of memory, say) fails its jobs with a sentence and is replaced on
 * the next call.
 */

type Api = DecodeApi;
type Reply = { id: number; item?: unknown; done?: boolean; value?: unknown; error?: ErrorData } | { ready: true };
interface Job {
  push: (item: unknown) => void;
  end: (value: unknown) => void;
  fail: (error: Error) => void;
}

/** The worker's old generation is capped so a runaway read ends the worker, not the server. */
const WORKER_HEAP_MB = 1024;
const DIED = "The log reader stopped unexpectedly while reading this chat; run oda-admin doctor.";

interface State {
  worker: Worker | null;
  jobs: Map<number, Job>;
  next: number;
}
// On globalThis: every bundle of the server shares one worker.
const KEY = Symbol.for("oda-admin.log-worker");
const state: State = ((globalThis as Record<symbol, unknown>)[KEY] as State) ?? {
  worker: null,
  jobs: new Map(),
  next: 1,
};
(globalThis as Record<symbol, unknown>)[KEY] = state;

function worker(): Worker {
  if (state.worker) return state.worker;
  const file = join(/*turbopackIgnore: true*/ process.cwd(), "server", "workers", "decode-thread.mjs");
  const w = new Worker(/*turbopackIgnore: true*/ file, {
    // The live admin state: its settings.json holds the log limits (one set per process).
    workerData: { state: sources().liveRoots.state },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  w.on("message", (reply: Reply) => {
    if ("ready" in reply) return;
    const job = state.jobs.get(reply.id);
    if (!job) return;
    if (reply.error) {
      forget(reply.id);
      job.fail(errorFromData(reply.error));
    } else if (reply.done) {
      forget(reply.id);
      job.end(reply.value);
    } else job.push(reply.item);
  });
  const fail = (error: unknown) => {
    if (state.worker === w) state.worker = null;
    console.error("oda-admin: the decode worker stopped:", error);
    for (const job of state.jobs.values()) job.fail(new OdaError("io", DIED));
    state.jobs.clear();
  };
  w.on("error", fail);
  w.on("exit", (code) => fail(`exit ${code}`));
  w.unref();
  state.worker = w;
  return w;
}

/**
 * Ends a job. The worker keeps the process alive only while a job is pending:
 * a CLI or bench awaiting a reply must not exit before it comes, and an idle
 * worker must not keep a process from ending.
 */
function forget(id: number): void {
  state.jobs.delete(id);
  if (!state.jobs.size) state.worker?.unref();
}

function post(fn: keyof Api, args: unknown[], job: Job, pull = false): number {
  const id = state.next++;
  state.jobs.set(id, job);
  const w = worker();
  w.ref();
  w.postMessage({ id, fn, args, pull });
  return id;
}

/** The reads that yield items rather than return a value. */
type Streaming = "listChats" | "chatActivity" | "downloadLog" | "downloadLine" | "doctorLogs";
type ItemOf<K extends keyof Api> = ReturnType<Api[K]> extends AsyncGenerator<infer T> ? T : never;

/** Runs one read on the worker and resolves with its result. */
export function inWorker<K extends Exclude<keyof Api, Streaming>>(
  fn: K,
  ...args: Parameters<Api[K]>
): Promise<Awaited<ReturnType<Api[K]>>> {
  return new Promise((end, fail) => {
    post(fn, args, { push: () => {}, end: end as (value: unknown) => void, fail });
  });
}

/** A read on the worker whose items come one per `next()`: the worker decodes no further than asked. */
export interface Pull<T> {
  next: () => Promise<IteratorResult<T, undefined>>;
  /** Stops the read (the reader went away). */
  cancel: () => void;
}

/** Starts a paced read (a download, the Doctor's reading of the logs) on the worker. */
export function pullInWorker<K extends "downloadLog" | "downloadLine" | "doctorLogs">(
  fn: K,
  ...args: Parameters<Api[K]>
): Pull<ItemOf<K>> {
  let waiting: { end: (r: IteratorResult<ItemOf<K>, undefined>) => void; fail: (e: Error) => void } | null = null;
  let over = false;
  const settle = (act: (w: NonNullable<typeof waiting>) => void) => {
    const w = waiting;
    waiting = null;
    if (w) act(w);
  };
  const id = post(
    fn,
    args,
    {
      push: (item) => settle((w) => w.end({ value: item as ItemOf<K>, done: false })),
      end: () => {
        over = true;
        settle((w) => w.end({ value: undefined, done: true }));
      },
      fail: (error) => {
        over = true;
        settle((w) => w.fail(error));
      },
    },
    true,
  );
  return {
    next: () => {
      if (over) return Promise.resolve({ value: undefined, done: true });
      return new Promise((end, fail) => {
        waiting = { end, fail };
        state.worker?.postMessage({ id, next: true });
      });
    },
    cancel: () => {
      if (over) return;
      over = true;
      forget(id);
      state.worker?.postMessage({ id, cancel: true });
    },
  };
}

/** Runs a streaming read (`listChats`, `chatActivity`) on the worker, yielding its items as they arrive. */
export async function* streamInWorker<K extends "listChats" | "chatActivity">(
  fn: K,
  ...args: Parameters<Api[K]>
): AsyncGenerator<ItemOf<K>> {
  type Item = ItemOf<K>;
  const queue: Item[] = [];
  let finished = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const poke = () => {
    wake?.();
    wake = null;
  };
  post(fn, args, {
    push: (item) => {
      queue.push(item as Item);
      poke();
    },
    end: () => {
      finished = true;
      poke();
    },
    fail: (error) => {
      failure = error;
      poke();
    },
  });
  for (;;) {
    const item = queue.shift();
    if (item !== undefined) {
      yield item;
      continue;
    }
    if (failure) throw failure;
    if (finished) return;
    await new Promise<void>((resume) => {
      wake = resume;
    });
  }
}
