"use server";

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { type BundleScope, REDACT_KINDS, unpackBundle } from "@/lib/bundle";
import { OdaError } from "@/lib/errors";
import { runAction } from "@/server/action";
import { closeBundle, showBundle } from "@/server/bundle";
import { bundleJob, startBundleJob, startPreviewJob } from "@/server/bundle-jobs";
import { requireState, serverRoots } from "@/server/roots";

const ZScope = z.object({
  chats: z.union([z.literal("all"), z.array(z.string().min(1).max(1024)).max(100_000), z.null()]),
  since: z
    .string()
    .max(40)
    .regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, "Use a date such as 2026-11-22.")
    .nullable(),
  memory: z.boolean(),
  kinds: z.array(z.enum(REDACT_KINDS)),
  keywords: z.array(z.string().min(1).max(200)).max(100),
  dropText: z.boolean(),
});

/** The roots a bundle is made of, and the state folder it is staged and written in. */
function bundleRootsOf() {
  const roots = serverRoots();
  if (!roots.home && !roots.logs) throw new OdaError("not_found", "No Oda home or log folder is set.");
  return { roots: { home: roots.home, logs: roots.logs }, state: requireState() };
}

function version(): string {
  try {
    return (
      (JSON.parse(readFileSync(join(process.cwd(), "package.json"), "utf8")) as { version?: string }).version ??
      "unknown"
    );
  } catch {
    return "unknown";
  }
}

/**
 * Starts counting what a bundle of this scope would hold (files, sizes, how many values each kind
 * replaces), writing nothing; the page polls `bundleJobAction` for its progress and the preview.
 */
export async function previewBundleAction(input: unknown) {
  return runAction(
    ZScope,
    input,
    async (scope: BundleScope) => {
      const { roots } = bundleRootsOf();
      return { id: startPreviewJob(roots, scope, version()).id };
    },
    { writes: true },
  );
}

/** Starts writing the bundle; the page polls `bundleJobAction` for its progress. */
export async function startBundleAction(input: unknown) {
  return runAction(
    ZScope,
    input,
    async (scope: BundleScope) => {
      const { roots, state } = bundleRootsOf();
      const job = startBundleJob(roots, state, scope, version());
      return { id: job.id };
    },
    { writes: true },
  );
}

/** A bundle job's progress; `download` is set once the file is written. */
export async function bundleJobAction(input: unknown) {
  return runAction(z.object({ id: z.string().regex(/^[0-9a-f]{16}$/) }), input, async ({ id }) => {
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
  });
}

/** Opens a bundle file of this computer: checked, unpacked into the state folder, then shown read-only. */
export async function openBundleAction(input: unknown) {
  return runAction(z.object({ path: z.string().min(1).max(4096) }), input, async ({ path }) => {
    closeBundle();
    const opened = await unpackBundle(path, requireState());
    showBundle(opened);
    revalidatePath("/", "layout");
    return { name: opened.name, createdAt: opened.manifest.createdAt };
  });
}

/** Goes back to the roots the dashboard had before a bundle was opened in it. */
export async function closeBundleAction(input: unknown = {}) {
  return runAction(z.object({}), input, async () => {
    if (!closeBundle())
      throw new OdaError("refused", "This dashboard was started on the bundle; stop it and start it without --bundle.");
    revalidatePath("/", "layout");
    return { closed: true };
  });
}
