import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BundleProgress, BundleRoots, BundleScope, Manifest } from "@/lib/bundle";
import { type BundleTask, CANCELLED, runBundleThread } from "@/lib/bundle/in-worker";
import { PREVIEW_FILES } from "@/lib/bundle/preview";
import { isOdaError } from "@/lib/errors";

/**
 * Bundles being written (or previewed) by this server: the page starts one,
 * polls its progress, and downloads the file when it is done. They are
 * written into `<state>/bundles/created/`, with the placeholder map beside
 * each. A preview writes nothing: it reads and redacts to count.
 */

/** What a preview found: the first files with their sizes, and the manifest's counts. */
export interface BundlePreview {
  files: { path: string; size: number }[];
  more: number;
  counts: Manifest["counts"];
}

export interface BundleJob {
  id: string;
  progress: BundleProgress;
  /** `cancelled`: nobody polled it for `ABANDONED_AFTER_MS` and its thread was ended (`error` says so); not a failure. */
  state: "running" | "done" | "failed" | "cancelled";
  file: string | null;
  mapFile: string | null;
  error: string | null;
  files: number;
  bytes: number;
  preview: BundlePreview | null;
  /** When the page last asked for this job (ms since the epoch): a job nobody polls is abandoned. */
  polledAt: number;
  /** Ends the job's thread (an abandoned job). */
  abort: AbortController;
}

/**
 * How long a running job may go unpolled before it counts as abandoned and is cancelled: the Support page
 * polls every 400 ms while it is open, so 15 s is a page closed or navigated away from, not a slow poll.
 */
export const ABANDONED_AFTER_MS = 15_000;

/** Cancels the running jobs not polled since `ABANDONED_AFTER_MS` before `now`; returns their ids. */
export function cancelAbandonedJobs(now = Date.now()): string[] {
  const cancelled: string[] = [];
  for (const job of jobs.values()) {
    if (job.state !== "running" || now - job.polledAt < ABANDONED_AFTER_MS) continue;
    job.abort.abort();
    cancelled.push(job.id);
  }
  return cancelled;
}

/** Looks for abandoned jobs every few seconds while any job runs (the timer does not keep the process alive). */
function watchAbandoned(): void {
  if (g.__odaBundleWatch) return;
  g.__odaBundleWatch = setInterval(() => {
    cancelAbandonedJobs();
    if (![...jobs.values()].some((j) => j.state === "running")) {
      clearInterval(g.__odaBundleWatch);
      g.__odaBundleWatch = undefined;
    }
  }, 3000);
  g.__odaBundleWatch.unref();
}

const g = globalThis as {
  __odaBundleJobs?: Map<string, BundleJob>;
  __odaBundleWatch?: ReturnType<typeof setInterval>;
};
g.__odaBundleJobs ??= new Map();
const jobs = g.__odaBundleJobs;

/** Starts counting what a bundle of `scope` would hold, in the background; nothing is written. */
export function startPreviewJob(roots: BundleRoots, scope: BundleScope, version: string): BundleJob {
  const job = newJob();
  inThread(job, { roots, scope, target: null, version }).then(
    ({ manifest }) => {
      // A preview's manifest lists its first PREVIEW_FILES files (`lib/bundle/preview.ts`); the counts cover every file.
      const files = manifest.files.slice(0, PREVIEW_FILES);
      job.preview = {
        files: files.map((f) => ({ path: f.path, size: f.size })),
        more: Math.max(0, manifest.counts.files - files.length),
        counts: manifest.counts,
      };
      job.state = "done";
    },
    (error: unknown) => failed(job, error),
  );
  return job;
}

function newJob(): BundleJob {
  const job: BundleJob = {
    id: randomBytes(8).toString("hex"),
    progress: { phase: "reading", done: 0, total: 0 },
    state: "running",
    file: null,
    mapFile: null,
    error: null,
    files: 0,
    bytes: 0,
    preview: null,
    polledAt: Date.now(),
    abort: new AbortController(),
  };
  jobs.set(job.id, job);
  watchAbandoned();
  return job;
}

/**
 * Runs a bundle task on a bundle thread of its own (`lib/bundle/in-worker.ts`): reading and redacting every
 * chosen file never holds up the server's requests, and its heap has a limit of its own. The thread runs at
 * a lower CPU priority (nice 10): on two cores it otherwise takes a core from the requests a person waits for.
 */
function inThread(job: BundleJob, task: BundleTask) {
  const file = join(/*turbopackIgnore: true*/ process.cwd(), "server", "workers", "bundle-thread.mjs");
  return runBundleThread(file, { ...task, background: true }, (p) => (job.progress = p), undefined, job.abort.signal);
}

function failed(job: BundleJob, error: unknown): void {
  // Ended on purpose (`cancelAbandonedJobs`): nothing went wrong, and the page says it was cancelled.
  if (job.abort.signal.aborted) {
    job.state = "cancelled";
    job.error = CANCELLED;
    return;
  }
  job.state = "failed";
  job.error = isOdaError(error) ? error.message : "The bundle could not be written; run oda-admin doctor.";
  if (!isOdaError(error)) console.error("oda-admin: a bundle failed:", error);
}

/** Starts writing a bundle in the background and returns its job at once. */
export function startBundleJob(roots: BundleRoots, state: string, scope: BundleScope, version: string): BundleJob {
  const dir = join(state, "bundles", "created");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const job = newJob();
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*$/, "");
  const target = join(dir, `oda-support-${stamp}-${job.id.slice(0, 6)}.tar.gz`);
  inThread(job, { roots, scope, target, version }).then(
    (made) => {
      Object.assign(job, { state: "done", file: made.file, mapFile: made.mapFile, files: made.manifest.counts.files });
      job.bytes = made.manifest.counts.bytes;
    },
    (error: unknown) => failed(job, error),
  );
  return job;
}

/** A job by id, or `null`; asking for it is the poll that keeps it from counting as abandoned. */
export function bundleJob(id: string): BundleJob | null {
  const job = jobs.get(id) ?? null;
  if (job) job.polledAt = Date.now();
  return job;
}
