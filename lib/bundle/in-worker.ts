import { existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type ErrorData, errorFromData, OdaError } from "../errors";
import type { BundleProgress, BundleRoots } from "./create";
import type { Manifest } from "./manifest";
import type { BundleScope } from "./plan";

/**
 * A bundle made on a worker thread of its own (issue 26), with its own heap
 * limit: V8 collects the thread's heap as it nears that limit, so the decoded
 * batches and file buffers a bundle reads through never pile up (the thread
 * of a dashboard that starts it is never paused by it, and no full collection
 * is forced: `--expose-gc` is not something Node promises). A runaway ends
 * the thread with a sentence, never the process that started it.
 */

/** The old generation's limit of a bundle thread: the live heap of a bundle of 10,000 chats and a 1 GB log is under 70 MiB. */
export const BUNDLE_HEAP_MB = 160;
const DIED =
  "Making the bundle stopped unexpectedly (it needed more memory than a bundle is given); nothing was written.";

/** What a bundle thread is asked: a preview (`target` null: reads and counts, writes nothing) or a bundle. */
export interface BundleTask {
  roots: BundleRoots;
  scope: BundleScope;
  target: string | null;
  version: string;
  /**
   * The thread lowers its own CPU priority (`lowerThisThread`): the dashboard's Preview and bundles run
   * beside requests a person waits for. A CLI's bundle is what its person waits for, and runs as it is.
   */
  background?: boolean;
}

/** What it answers: the manifest (listing its first `PREVIEW_FILES` files; its counts cover all), and the files written (none for a preview). */
export interface BundleResult {
  file: string | null;
  mapFile: string | null;
  manifest: Manifest;
}

type Message = { progress: BundleProgress } | { result: BundleResult } | { error: ErrorData };

/** The bundle thread's file beside this module: the clone's launcher, or the package's compiled one. */
export function bundleThreadFile(): string | null {
  const here = import.meta.url;
  if (!here?.startsWith("file:")) return null;
  const file = join(dirname(fileURLToPath(here)), "bundle-thread.mjs");
  return existsSync(file) ? file : null;
}

/** Why a bundle task ended early when `signal` aborted it (its thread is ended, its partial archive removed). */
export const CANCELLED = "The bundle was cancelled: the page that asked for it went away.";

/**
 * Runs `task` on a new bundle thread started from `file`, relaying its progress. Aborting `signal` ends the
 * thread at once (no cleanup runs there, so the partial archive is removed here) and rejects with `CANCELLED`.
 */
export function runBundleThread(
  file: string,
  task: BundleTask,
  onProgress?: (p: BundleProgress) => void,
  heapMb = BUNDLE_HEAP_MB,
  signal?: AbortSignal,
): Promise<BundleResult> {
  return new Promise((end, fail) => {
    const worker = new Worker(/*turbopackIgnore: true*/ file, {
      workerData: task,
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
    });
    let settled = false;
    const settle = (act: () => void) => {
      if (settled) return;
      settled = true;
      act();
    };
    worker.on("message", (message: Message) => {
      if ("progress" in message) onProgress?.(message.progress);
      else if ("result" in message) settle(() => end(message.result));
      else settle(() => fail(errorFromData(message.error)));
    });
    const died = (why: unknown) =>
      settle(() => {
        // A thread that ran out of memory ran no cleanup: its archive, written beside the target, goes.
        if (task.target) rmSync(`${task.target}.partial-${process.pid}`, { force: true });
        console.error("oda-admin: the bundle thread stopped:", why);
        fail(new OdaError("io", DIED));
      });
    worker.on("error", died);
    worker.on("exit", (code) => died(`exit ${code}`));
    signal?.addEventListener(
      "abort",
      () => {
        settle(() => {
          if (task.target) rmSync(`${task.target}.partial-${process.pid}`, { force: true });
          fail(new OdaError("io", CANCELLED));
        });
        void worker.terminate();
      },
      { once: true },
    );
  });
}
