import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type BundleProgress, type BundleRoots, type BundleScope, createBundle } from "@/lib/bundle";
import { isOdaError } from "@/lib/errors";

/**
 * Bundles being written by this server: the page starts one, polls its
 * progress, and downloads the file when it is done. They are written into
 * `<state>/bundles/created/`, with the placeholder map beside each.
 */
export interface BundleJob {
  id: string;
  progress: BundleProgress;
  state: "running" | "done" | "failed";
  file: string | null;
  mapFile: string | null;
  error: string | null;
  files: number;
  bytes: number;
}

const g = globalThis as { __odaBundleJobs?: Map<string, BundleJob> };
g.__odaBundleJobs ??= new Map();
const jobs = g.__odaBundleJobs;

/** Starts writing a bundle in the background and returns its job at once. */
export function startBundleJob(roots: BundleRoots, state: string, scope: BundleScope, version: string): BundleJob {
  const id = randomBytes(8).toString("hex");
  const dir = join(state, "bundles", "created");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*$/, "");
  const target = join(dir, `oda-support-${stamp}-${id.slice(0, 6)}.tar.gz`);
  const job: BundleJob = {
    id,
    progress: { phase: "reading", done: 0, total: 0 },
    state: "running",
    file: null,
    mapFile: null,
    error: null,
    files: 0,
    bytes: 0,
  };
  jobs.set(id, job);
  createBundle(roots, scope, target, { version, onProgress: (p) => (job.progress = p) }).then(
    (made) => {
      Object.assign(job, { state: "done", file: made.file, mapFile: made.mapFile, files: made.manifest.counts.files });
      job.bytes = made.manifest.counts.bytes;
    },
    (error: unknown) => {
      job.state = "failed";
      job.error = isOdaError(error) ? error.message : "The bundle could not be written; run oda-admin doctor.";
      if (!isOdaError(error)) console.error("oda-admin: a bundle failed:", error);
    },
  );
  return job;
}

/** A job by id, or `null`. */
export function bundleJob(id: string): BundleJob | null {
  return jobs.get(id) ?? null;
}
