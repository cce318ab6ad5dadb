import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BundleProgress, BundleRoots, BundleScope, Manifest } from "@/lib/bundle";
import { type BundleTask, runBundleThread } from "@/lib/bundle/in-worker";
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

/** Files a preview lists (the counts cover every file). */
const PREVIEW_FILES = 500;
export interface BundleJob {
  id: string;
  progress: BundleProgress;
  state: "running" | "done" | "failed";
  file: string | null;
  mapFile: string | null;
  error: string | null;
  files: number;
  bytes: number;
  preview: BundlePreview | null;
}

const g = globalThis as { __odaBundleJobs?: Map<string, BundleJob> };
g.__odaBundleJobs ??= new Map();
const jobs = g.__odaBundleJobs;

/** Starts counting what a bundle of `scope` would hold, in the background; nothing is written. */
export function startPreviewJob(roots: BundleRoots, scope: BundleScope, version: string): BundleJob {
  const job = newJob();
  inThread(job, { roots, scope, target: null, version }).then(
    ({ manifest }) => {
      const files = manifest.files;
      job.preview = {
        files: files.slice(0, PREVIEW_FILES).map((f) => ({ path: f.path, size: f.size })),
        more: Math.max(0, files.length - PREVIEW_FILES),
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
  };
  jobs.set(job.id, job);
  return job;
}

/**
 * Runs a bundle task on a bundle thread of its own (`lib/bundle/in-worker.ts`): reading and redacting every
 * chosen file never holds up the server's requests, and its heap has a limit of its own.
 */
function inThread(job: BundleJob, task: BundleTask) {
  const file = join(/*turbopackIgnore: true*/ process.cwd(), "server", "workers", "bundle-thread.mjs");
  return runBundleThread(file, task, (p) => (job.progress = p));
}

function failed(job: BundleJob, error: unknown): void {
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

/** A job by id, or `null`. */
export function bundleJob(id: string): BundleJob | null {
  return jobs.get(id) ?? null;
}
