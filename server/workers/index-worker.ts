import "server-only";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import { errorFromData, OdaError } from "@/lib/errors";
import type { RefreshResult, RefreshRunner } from "@/lib/search-index";

/**
 * The server's index refresh runner: each background refresh runs on a worker
 * thread of its own (`server/workers/index-thread.mjs`) with its own connection to the
 * index, so decoding logs (a zstd bomb included) never blocks the event loop,
 * and the decode worker stays free for the inspector's reads meanwhile. The
 * main thread's readers keep their connection; the index is in WAL mode, so
 * they read the last committed state while the worker writes.
 */

/** The worker's old generation is capped so a runaway refresh ends the worker, not the server. */
const WORKER_HEAP_MB = 1024;
const DIED = "The index refresh stopped unexpectedly; run oda-admin doctor.";

type Message =
  | { progress: [number, number] }
  | { result: RefreshResult }
  | { error: { name: string; code?: string; message: string } };

/** Runs one refresh on a new worker thread, relaying its progress. */
export const refreshInWorker: RefreshRunner = (handle, options) =>
  new Promise((end, fail) => {
    const file = join(/*turbopackIgnore: true*/ process.cwd(), "server", "workers", "index-thread.mjs");
    const worker = new Worker(/*turbopackIgnore: true*/ file, {
      workerData: { state: dirname(handle.path), logDir: handle.logDir, compress: options.compress },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    let settled = false;
    const settle = (act: () => void) => {
      if (settled) return;
      settled = true;
      act();
    };
    worker.on("message", (message: Message) => {
      if ("progress" in message) options.onProgress(...message.progress);
      else if ("result" in message) settle(() => end(message.result));
      else settle(() => fail(errorFromData(message.error)));
    });
    const died = (why: unknown) =>
      settle(() => {
        console.error("oda-admin: the index refresh worker stopped:", why);
        fail(new OdaError("io", DIED));
      });
    worker.on("error", died);
    worker.on("exit", (code) => died(`exit ${code}`));
    worker.unref();
  });
