"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { applyRepair, type RepairTarget, setAsideHomeLock, undoRepair } from "@/lib/repair";
import { runAction } from "@/server/access/action";
import { afterResume, repairRoots, startFormJob } from "@/server/jobs/repairs";
import { ZTargetInput } from "@/server/reads/repairs";
import { requireSourceRoot } from "@/server/source/context";

const ZUndo = z.object({ id: z.string().min(1).max(200) });

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
