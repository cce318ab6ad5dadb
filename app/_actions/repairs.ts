"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ZMemoryId, ZWorkspace } from "@/lib/memory";
import {
  applyRepair,
  compareCopies,
  listJobs,
  listJournals,
  listRepairable,
  previewRepair,
  type RepairTarget,
  setAsideHomeLock,
  spaceReport,
  undoRepair,
} from "@/lib/repair";
import { readCompressSetting } from "@/lib/sessions";
import { runAction } from "@/server/action";
import { afterResume, repairRoots, resumeReport, startFormJob } from "@/server/repairs";
import { requireSourceRoot } from "@/server/source/context";

// Ids and names are data: the lib finds chats by decoding folder names and checks memory ids and keys.
const ZChat = z.string().min(1).max(1024);
const ZTarget = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("form"), chat: ZChat }),
  z.object({ kind: z.literal("duplicate"), chat: ZChat, setAside: z.string().min(1).max(4096) }),
  z.object({ kind: z.literal("archive"), chat: ZChat, generations: z.array(z.string().max(200)).max(100).optional() }),
  z.object({ kind: z.literal("memory"), workspace: ZWorkspace, memory: ZMemoryId }),
]);
const ZTargetInput = z.object({ target: ZTarget });
const ZUndo = z.object({ id: z.string().min(1).max(200) });

/** Exactly which files a repair will change, move or create; writes nothing. */
export async function previewRepairAction(input: unknown) {
  return runAction(ZTargetInput, input, async ({ target }, ctx) => {
    const roots = repairRoots(ctx);
    return previewRepair(roots, target as RepairTarget);
  });
}

/** Applies a repair the person confirmed after its preview. */
export async function applyRepairAction(input: unknown) {
  return runAction(
    ZTargetInput,
    input,
    async ({ target }, ctx) => {
      const roots = repairRoots(ctx);
      await afterResume();
      const journal = await applyRepair(roots, target as RepairTarget);
      revalidatePath("/", "layout");
      return { id: journal.id, summary: journal.summary };
    },
    { writes: true },
  );
}

/**
 * What setting the home's memory lock aside (`lock:memory-history`) will do: the path and what is there; writes
 * nothing. The same lib function as `oda-admin repair apply lock:memory-history --dry-run`.
 */
export async function previewHomeLockAction(input: unknown) {
  return runAction(z.object({}), input, async (_input, ctx) => {
    return setAsideHomeLock(requireSourceRoot(ctx, "home"), requireSourceRoot(ctx, "state"), true);
  });
}

/** Sets the home's memory lock aside into the admin state, after the person confirmed the preview. */
export async function setAsideHomeLockAction(input: unknown) {
  return runAction(
    z.object({}),
    input,
    async (_input, ctx) => {
      const done = await setAsideHomeLock(requireSourceRoot(ctx, "home"), requireSourceRoot(ctx, "state"));
      revalidatePath("/", "layout");
      return done;
    },
    { writes: true },
  );
}

/** Puts back every byte a repair changed. */
export async function undoRepairAction(input: unknown) {
  return runAction(
    ZUndo,
    input,
    async ({ id }, ctx) => {
      const roots = repairRoots(ctx);
      await afterResume();
      const journal = await undoRepair(roots.state, id);
      revalidatePath("/", "layout");
      return { id: journal.id, summary: journal.summary };
    },
    { writes: true },
  );
}

/** The newest folder-form conversion job, or null: one small file read, for polling while it runs. */
export async function repairsJobAction(input: unknown) {
  return runAction(z.object({}), input, async (_input, ctx) => listJobs(repairRoots(ctx).state)[0] ?? null);
}

/** The Repairs page's data: problems with a repair, space, the conversion job, and the repairs made. */
export async function repairsOverviewAction(input: unknown) {
  return runAction(z.object({}), input, async (_input, ctx) => {
    const roots = repairRoots(ctx);
    const [repairable, space] = await Promise.all([listRepairable(roots), spaceReport(roots)]);
    return {
      repairable,
      space,
      compress: readCompressSetting(roots.home),
      job: listJobs(roots.state)[0] ?? null,
      // What the server's start did with interrupted repairs (a GET never resumes them); live only.
      resume: ctx.canWrite ? resumeReport() : null,
      journals: listJournals(roots.state).map((j) => ({
        id: j.id,
        kind: j.kind,
        subject: j.subject,
        summary: j.summary,
        phase: j.phase,
        createdAt: j.createdAt,
        undoneBy: j.undoneBy ?? null,
        undoOf: j.undoOf ?? null,
        files: j.files.map((f) => ({
          path: f.path,
          before: f.before,
          after: f.after && { size: f.after.size, sha256: f.after.sha256 },
        })),
      })),
    };
  });
}

/** The two copies of a chat stored in two places, side by side. */
export async function compareCopiesAction(input: unknown) {
  return runAction(z.object({ chat: ZChat }), input, async ({ chat }, ctx) => {
    const roots = repairRoots(ctx);
    if (!roots.logs) return [];
    return compareCopies(roots.logs, chat, readCompressSetting(roots.home));
  });
}

/**
 * Starts converting every chat to the folder's form in this server process;
 * the page follows the job journal. Returns at once: the job may take minutes.
 */
export async function startFormJobAction(input: unknown) {
  return runAction(
    z.object({}),
    input,
    async (_input, ctx) => {
      const roots = repairRoots(ctx);
      await afterResume();
      return { started: startFormJob(roots) };
    },
    { writes: true },
  );
}
