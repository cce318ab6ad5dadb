import "server-only";
import { type RepairRoots, type ResumeOutcome, resumeRepairs, runFormJob } from "@/lib/repair";
import { requireSourceRoot, type SourceContext } from "@/server/source/context";

/** The roots a repair needs; refused when the source has no admin state folder. */
export function repairRoots(ctx: SourceContext): RepairRoots {
  const { home, logs } = ctx.roots;
  return { home, logs, state: requireSourceRoot(ctx, "state") };
}

// One conversion at a time in this process; another process's live job is refused by the job journal.
let jobRunning: Promise<unknown> | null = null;

/**
 * Runs (or, with `continueOnly`, continues a stopped) conversion of every chat
 * to the folder's form in the background; the page follows the job journal.
 * Returns false when one is already running here.
 */
export function startFormJob(roots: RepairRoots, continueOnly = false): boolean {
  if (jobRunning) return false;
  jobRunning = runFormJob(roots, { continueOnly })
    .catch((error) => console.error("oda-admin: converting the chats stopped:", error))
    .finally(() => {
      jobRunning = null;
    });
  return true;
}

/** What the start's resume did: each interrupted repair settled, or the sentence it failed with. */
export interface ResumeReport {
  /** False while it runs (the start hook waits for it, so a page rarely sees that). */
  done: boolean;
  outcomes: ResumeOutcome[];
  error: string | null;
}

const KEY = Symbol.for("oda-admin.resume");
const store = globalThis as { [KEY]?: { promise: Promise<void>; report: ResumeReport } };

/**
 * Settles repairs a stop interrupted, once per server process, at its start
 * (the contract's "the next start finishes or rolls it back"), then continues a
 * stopped conversion in the background. Only the live installation is
 * resumed: a bundle is read-only, its interrupted repairs stay as shipped. A
 * repair another live process runs is left alone. Never from a GET: the
 * Repairs page shows the report.
 */
export function resumeAtStart(ctx: SourceContext): Promise<void> {
  const existing = store[KEY];
  if (existing) return existing.promise;
  const report: ResumeReport = { done: false, outcomes: [], error: null };
  if (!ctx.canWrite || !ctx.roots.state) {
    report.done = true;
    store[KEY] = { promise: Promise.resolve(), report };
    return store[KEY].promise;
  }
  const roots = repairRoots(ctx);
  const promise = resumeRepairs(roots.state)
    .then((outcomes) => {
      report.outcomes = outcomes;
      startFormJob(roots, true);
    })
    .catch((error) => {
      report.error = error instanceof Error ? error.message : String(error);
      console.error("oda-admin: resuming interrupted repairs failed:", error);
    })
    .finally(() => {
      report.done = true;
    });
  store[KEY] = { promise, report };
  return promise;
}

/** Waits for the start's resume before a repair writes (it has finished once the server serves). */
export async function afterResume(): Promise<void> {
  await store[KEY]?.promise;
}

/** The start's resume report, for the Repairs page; null when it has not run in this process. */
export function resumeReport(): ResumeReport | null {
  const found = store[KEY];
  return found ? { ...found.report, outcomes: [...found.report.outcomes] } : null;
}
