import "server-only";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { type ErrorData, errorFromData, OdaError } from "@/lib/errors";
import { sources } from "@/server/source/registry";
import type { DecodeApi } from "@/server/workers/decode-api";

/**
 * The main thread's side of the decode worker (`server/workers/decode-thread.mjs`): worker threads that run
 * the reads of `lib/chats/worker-api.ts`, started on first use. Jobs of one thread share it and take turns
 * (the decoder gives its event loop a turn every few milliseconds). A worker that dies (out of memory, say)
 * fails its jobs with a sentence and is replaced on the next call.
 *
 * Two lanes, each its own thread and heap: `decode` for every read but one, and `doctor` for the Doctor's
 * reading of every log, which would otherwise wait behind the chat list's folder check (a synchronous walk of
 * every chat folder, seconds at 100,000 chats) and then hold the lane for minutes. A lane's thread is ended
 * once it has had no job for `idleEndMs`, so an idle server gives its heap back (the folder check leaves
 * hundreds of MB of it at 100,000 chats); the next call starts it again. A big log's line index, which takes
 * seconds to build, is not lost with the thread: it is remembered in the admin state with the log's identity
 * (`lib/chats/line-index.ts`, `IndexMemory`), and the next thread takes it from there.
 */

type Api = DecodeApi;
type Reply = { id: number; item?: unknown; done?: boolean; value?: unknown; error?: ErrorData } | { ready: true };
interface Job {
  push: (item: unknown) => void;
  end: (value: unknown) => void;
  fail: (error: Error) => void;
}

/** The threads: `doctor` runs only the Doctor's reading of the logs. */
export type Lane = "decode" | "doctor";
const laneOf = (fn: keyof Api): Lane => (fn === "doctorLogs" ? "doctor" : "decode");

/** The worker's old generation is capped so a runaway read ends the worker, not the server. */
const WORKER_HEAP_MB = 1024;
const DIED = "The log reader stopped unexpectedly while reading this chat; run oda-admin doctor.";

/** One lane's thread and the jobs it runs. */
interface Thread {
  worker: Worker;
  jobs: Map<number, Job>;
  idle: ReturnType<typeof setTimeout> | null;
}
interface State {
  threads: Partial<Record<Lane, Thread>>;
  next: number;
  /** How long a lane's thread is kept without a job. */
  idleEndMs: number;
}
// On globalThis: every bundle of the server shares the threads.
const KEY = Symbol.for("oda-admin.log-worker.lanes");
const state: State = ((globalThis as Record<symbol, unknown>)[KEY] as State) ?? {
  threads: {},
  next: 1,
  idleEndMs: 10_000,
};
(globalThis as Record<symbol, unknown>)[KEY] = state;

/** Sets how long an idle lane's thread is kept (10 s unless set; tests shorten it). */
export function setIdleEnd(ms: number): void {
  state.idleEndMs = ms;
}

/** The lanes that have a thread now. */
export function runningLanes(): Lane[] {
  return (Object.keys(state.threads) as Lane[]).filter((lane) => state.threads[lane]);
}

function thread(lane: Lane): Thread {
  const running = state.threads[lane];
  if (running) return running;
  const file = join(/*turbopackIgnore: true*/ process.cwd(), "server", "workers", "decode-thread.mjs");
  const w = new Worker(/*turbopackIgnore: true*/ file, {
    // The live admin state: its settings.json holds the log limits (one set per process).
    workerData: { state: sources().liveRoots.state, lane },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  const t: Thread = { worker: w, jobs: new Map(), idle: null };
  w.on("message", (reply: Reply) => {
    if ("ready" in reply) return;
    const job = t.jobs.get(reply.id);
    if (!job) return;
    if (reply.error) {
      forget(t, reply.id);
      job.fail(errorFromData(reply.error));
    } else if (reply.done) {
      forget(t, reply.id);
      job.end(reply.value);
    } else job.push(reply.item);
  });
  let ended = false;
  const fail = (error: unknown) => {
    if (ended) return;
    ended = true;
    if (t.idle) clearTimeout(t.idle);
    if (state.threads[lane] === t) delete state.threads[lane];
    // Only this thread's jobs: a thread started since (after an idle end) keeps its own.
    if (!t.jobs.size) return;
    console.error("oda-admin: the decode worker stopped:", error);
    for (const job of t.jobs.values()) job.fail(new OdaError("io", DIED));
    t.jobs.clear();
  };
  w.on("error", fail);
  w.on("exit", (code) => fail(`exit ${code}`));
  w.unref();
  state.threads[lane] = t;
  return t;
}

/**
 * Ends a job. The worker keeps the process alive only while a job is pending:
 * a CLI or bench awaiting a reply must not exit before it comes, and an idle
 * worker must not keep a process from ending. With no job left, the thread is
 * ended after `idleEndMs` unless a job comes first.
 */
function forget(t: Thread, id: number): void {
  t.jobs.delete(id);
  if (t.jobs.size) return;
  t.worker.unref();
  endWhenIdle(t);
}

/** Ends `t` once it has had no job for the idle time. */
function endWhenIdle(t: Thread): void {
  if (t.idle) clearTimeout(t.idle);
  t.idle = setTimeout(() => {
    t.idle = null;
    if (t.jobs.size) return;
    for (const [lane, running] of Object.entries(state.threads)) if (running === t) delete state.threads[lane as Lane];
    void t.worker.terminate();
  }, state.idleEndMs);
  t.idle.unref();
}

/**
 * Starts a lane's thread ahead of its first job: the Doctor page does while the browser loads it, since a
 * thread's start takes seconds in a clone (tsx compiles its modules). One that gets no job ends when idle.
 */
export function warmLane(lane: Lane): void {
  const t = thread(lane);
  if (!t.jobs.size && !t.idle) endWhenIdle(t);
}

function post(fn: keyof Api, args: unknown[], job: Job, pull = false, flag?: Int32Array): { id: number; t: Thread } {
  const id = state.next++;
  const t = thread(laneOf(fn));
  if (t.idle) clearTimeout(t.idle);
  t.idle = null;
  t.jobs.set(id, job);
  t.worker.ref();
  t.worker.postMessage({ id, fn, args, pull, ...(flag ? { flag } : {}) });
  return { id, t };
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

/** The reads that can be told nobody waits for them any more (their last argument there is `cancelled`). */
type Cancellable = "indexFreshness";
type Leading<P extends unknown[]> = P extends [...infer L, ((() => boolean) | undefined)?] ? L : P;

/**
 * `inWorker` for a read its callers may abandon (the folder check, issue 28): the thread gets a flag in shared
 * memory with the job, and the read looks at it during its synchronous walk (`cancelled`, its last argument
 * there). When `signal` aborts the flag is set, and the read ends with its cancellation error within a few
 * chats (`lib/search-index/scan.ts`), leaving the thread to the reads someone waits for.
 */
export function abandonableInWorker<K extends Cancellable>(
  signal: AbortSignal,
  fn: K,
  ...args: Leading<Parameters<Api[K]>>
): Promise<Awaited<ReturnType<Api[K]>>> {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const tell = () => Atomics.store(flag, 0, 1);
  if (signal.aborted) tell();
  else signal.addEventListener("abort", tell, { once: true });
  return new Promise((end, fail) => {
    const done = () => signal.removeEventListener("abort", tell);
    post(
      fn,
      args,
      {
        push: () => {},
        end: (value) => {
          done();
          end(value as Awaited<ReturnType<Api[K]>>);
        },
        fail: (error) => {
          done();
          fail(error);
        },
      },
      false,
      flag,
    );
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
  const { id, t } = post(
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
        t.worker.postMessage({ id, next: true });
      });
    },
    cancel: () => {
      if (over) return;
      over = true;
      t.worker.postMessage({ id, cancel: true });
      forget(t, id);
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
