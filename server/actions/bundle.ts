"use server";

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { type BundleScope, REDACT_KINDS } from "@/lib/bundle";
import { OdaError } from "@/lib/errors";
import { runAction } from "@/server/access/action";
import { startBundleJob, startPreviewJob } from "@/server/jobs/bundle-jobs";
import { requireSourceRoot, SOURCE_ID, type SourceContext } from "@/server/source/context";
import { sources } from "@/server/source/registry";

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
  notes: z.boolean().optional(),
});

/** The roots a bundle is made of, and the state folder it is staged and written in. */
function bundleRootsOf(ctx: SourceContext) {
  const roots = ctx.roots;
  if (!roots.home && !roots.logs) throw new OdaError("not_found", "No Oda home or log folder is set.");
  const state = requireSourceRoot(ctx, "state");
  return { roots: { home: roots.home, logs: roots.logs, state }, state };
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
 * replaces), writing nothing; the page polls the `bundles.job` read for its progress and the preview.
 */
export async function previewBundleAction(input: unknown) {
  return runAction(
    ZScope,
    input,
    async (scope: BundleScope, ctx) => {
      const { roots } = bundleRootsOf(ctx);
      return { id: startPreviewJob(roots, scope, version()).id };
    },
    { writes: true },
  );
}

/** Starts writing the bundle; the page polls the `bundles.job` read for its progress. */
export async function startBundleAction(input: unknown) {
  return runAction(
    ZScope,
    input,
    async (scope: BundleScope, ctx) => {
      const { roots, state } = bundleRootsOf(ctx);
      const job = startBundleJob(roots, state, scope, version());
      return { id: job.id };
    },
    { writes: true },
  );
}

/**
 * Opens a bundle file of this computer beside the sources already open: checked, unpacked into the
 * admin state, then shown read-only under `/b/<id>`. A refusal leaves every open source as it was.
 */
export async function openBundleAction(input: unknown) {
  return runAction(z.object({ path: z.string().min(1).max(4096) }), input, async ({ path }) => {
    const opened = await sources().open(path);
    revalidatePath("/", "layout");
    return { id: opened.id, name: opened.bundle?.name ?? opened.id, href: opened.prefix };
  });
}

/** Closes one opened bundle (its address then answers "not open"); every other source stays open. */
export async function closeBundleAction(input: unknown) {
  return runAction(z.object({ id: z.string().regex(SOURCE_ID) }), input, async ({ id }) => {
    sources().close(id);
    revalidatePath("/", "layout");
    return { closed: id };
  });
}
