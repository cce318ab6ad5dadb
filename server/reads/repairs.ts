import "server-only";
import { z } from "zod";
import { ZMemoryId, ZWorkspace } from "@/lib/memory";
import {
  compareCopies,
  listJobs,
  listJournals,
  listRepairable,
  previewRepair,
  type RepairTarget,
  setAsideHomeLock,
  spaceReport,
} from "@/lib/repair";
import { repairRoots, resumeReport } from "@/server/jobs/repairs";
import { requireSourceRoot, type SourceContext } from "@/server/source/context";

// The Repairs page's reads. None of them changes anything: interrupted repairs are resumed at the
// server's start (`resumeAtStart`), and the overview only reports what that did.

// Ids and names are data: the lib finds chats by decoding folder names and checks memory ids and keys.
const ZChat = z.string().min(1).max(1024);
export const ZTarget = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("form"), chat: ZChat }),
  z.object({ kind: z.literal("duplicate"), chat: ZChat, setAside: z.string().min(1).max(4096) }),
  z.object({ kind: z.literal("archive"), chat: ZChat, generations: z.array(z.string().max(200)).max(100).optional() }),
  z.object({ kind: z.literal("memory"), workspace: ZWorkspace, memory: ZMemoryId }),
]);
export const ZTargetInput = z.object({ target: ZTarget });
export const ZCompare = z.object({ chat: ZChat });

/** The Repairs page's data: problems with a repair, space, the conversion job, and the repairs made. */
export async function readRepairsOverview(ctx: SourceContext) {
  const roots = repairRoots(ctx);
  const [repairable, space] = await Promise.all([listRepairable(roots), spaceReport(roots)]);
  return {
    repairable,
    space,
    compress: ctx.log.compress,
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
}

/** The newest folder-form conversion job, or null: one small file read, for polling while it runs. */
export function readRepairsJob(ctx: SourceContext) {
  return listJobs(repairRoots(ctx).state)[0] ?? null;
}

/** Exactly which files a repair will change, move or create; writes nothing. */
export function readRepairPreview(ctx: SourceContext, { target }: z.infer<typeof ZTargetInput>) {
  return previewRepair(repairRoots(ctx), target as RepairTarget);
}

/**
 * What setting the home's memory lock aside (`lock:memory-history`) will do: the path and what is there; writes
 * nothing. The same lib function as `oda-admin repair apply lock:memory-history --dry-run`.
 */
export function readHomeLockPreview(ctx: SourceContext) {
  return setAsideHomeLock(requireSourceRoot(ctx, "home"), requireSourceRoot(ctx, "state"), true);
}

/** The two copies of a chat stored in two places, side by side. */
export function readCopies(ctx: SourceContext, { chat }: z.infer<typeof ZCompare>) {
  const roots = repairRoots(ctx);
  if (!roots.logs) return [];
  return compareCopies(roots.logs, chat, ctx.log.compress);
}
