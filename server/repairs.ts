import { OdaError } from "@/lib/errors";
import { type RepairRoots, resumeRepairs } from "@/lib/repair";
import { serverRoots } from "@/server/roots";

/** The roots a repair needs; refused when the server has no admin state folder. */
export function repairRoots(): RepairRoots {
  const { home, logs, state } = serverRoots();
  if (!state)
    throw new OdaError(
      "not_found",
      "No admin state folder is set: start the dashboard with --state DIR or --home DIR.",
    );
  return { home, logs, state };
}

let resumed: Promise<unknown> | null = null;

/**
 * Settles repairs a stop interrupted, once per server process (the contract's
 * "the next start finishes or rolls it back"): before the first repair read or
 * write of this process. A repair another live process runs is left alone.
 */
export async function resumeOnce(roots: RepairRoots): Promise<void> {
  resumed ??= resumeRepairs(roots.state).catch((error) => {
    console.error("oda-admin: resuming interrupted repairs failed:", error);
  });
  await resumed;
}
