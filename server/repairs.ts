import "server-only";
import { type RepairRoots, resumeRepairs, runFormJob } from "@/lib/repair";
import { activeBundle } from "@/server/bundle";
import { requireState, serverRoots } from "@/server/roots";

/** The roots a repair needs; refused when the server has no admin state folder. */
export function repairRoots(): RepairRoots {
  const { home, logs } = serverRoots();
  return { home, logs, state: requireState() };
}

let resumed: Promise<unknown> | null = null;
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

/**
 * Settles repairs a stop interrupted, once per server process (the contract's
 * "the next start finishes or rolls it back"): before the first repair read or
 * write of this process, then continues a stopped conversion in the
 * background. A repair another live process runs is left alone.
 */
export async function resumeOnce(roots: RepairRoots): Promise<void> {
  // a support bundle is read-only: an interrupted repair in it stays as it was shipped
  if (activeBundle()) return;
  resumed ??= resumeRepairs(roots.state)
    .then(() => startFormJob(roots, true))
    .catch((error) => {
      console.error("oda-admin: resuming interrupted repairs failed:", error);
    });
  await resumed;
}
