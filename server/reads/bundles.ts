import "server-only";
import { z } from "zod";
import { OdaError } from "@/lib/errors";
import { bundleJob } from "@/server/jobs/bundle-jobs";

// The Support page's read: a bundle job's progress, polled while it runs (starting one is an action).

export const ZBundleJob = z.object({ id: z.string().regex(/^[0-9a-f]{16}$/) });

/** A bundle job's progress; `fileName` is set once the file is written. */
export function readBundleJob({ id }: z.infer<typeof ZBundleJob>) {
  const job = bundleJob(id);
  if (!job) throw new OdaError("not_found", "No such bundle is being written here.");
  return {
    state: job.state,
    progress: job.progress,
    error: job.error,
    files: job.files,
    bytes: job.bytes,
    fileName: job.file ? job.file.split(/[\\/]/).pop() : null,
    mapFile: job.mapFile,
    preview: job.preview,
  };
}
