import { randomBytes } from "node:crypto";
import { promises as fsp } from "node:fs";
import { join } from "node:path";
import { OdaError } from "../errors";
import { fsyncFolder } from "../fs/atomic";
import { HOME_LOCK_REPAIR, inspectLockFile, lockFileProblem } from "../fs/home-lock";
import { MESSAGES } from "../memory/messages";
import { repairsFolder } from "./journal";

/**
 * Setting aside `<home>/memory-history/.lock` when it holds no lock a running Oda Admin process holds (a
 * folder, a FIFO, a link, an empty or garbled file, a lock of a gone or uncheckable holder): only after a
 * person confirms (`oda-admin repair apply lock:memory-history`), and the thing is kept in the admin state
 * (`<state>/repairs/locks/<moment>-memory-history/`) with a note of what it was, never deleted.
 */

/** The home's memory lock. */
export function homeLockPath(home: string): string {
  return join(home, "memory-history", ".lock");
}

/** The repair offered for the home's lock, or null when it needs none (absent, or held by a live process). */
export async function homeLockRepairable(home: string): Promise<{ id: string; message: string } | null> {
  const path = homeLockPath(home);
  const problem = await lockFileProblem(path);
  if (problem) return { id: HOME_LOCK_REPAIR, message: problem };
  const seen = await inspectLockFile(path);
  if (seen.state === "held" && seen.judged.state === "stale")
    return { id: HOME_LOCK_REPAIR, message: `${path} is a stale lock: ${seen.judged.reason}` };
  return null;
}

/** What setting the lock aside did (or, with `dryRun`, would do). */
export interface HomeLockSetAside {
  path: string;
  /** What was there, in words. */
  what: string;
  /** Where it is kept (`null` on a dry run). */
  keptIn: string | null;
}

/** Moves the home's lock into the admin state after a person confirmed it; refuses a live holder's lock. */
export async function setAsideHomeLock(home: string, state: string, dryRun = false): Promise<HomeLockSetAside> {
  const path = homeLockPath(home);
  const seen = await inspectLockFile(path);
  if (seen.state === "absent") throw new OdaError("not_found", `${path} does not exist; nothing was changed.`);
  if (seen.state === "held" && seen.judged.state === "live") throw new OdaError("locked", MESSAGES.busy);
  const what =
    seen.state === "broken"
      ? seen.what
      : `the lock of process ${seen.holder.pid} on ${seen.holder.host} (${seen.judged.reason})`;
  if (dryRun) return { path, what, keptIn: null };
  const moment = new Date().toISOString().replace(/[-:.]/g, "");
  const kept = join(repairsFolder(state), "locks", `${moment}-memory-history-${randomBytes(3).toString("hex")}`);
  await fsp.mkdir(kept, { recursive: true });
  // Renamed aside first (atomic, in the same folder), so a lock a process creates meanwhile is never taken.
  const aside = `${path}.aside-${randomBytes(6).toString("hex")}`;
  await fsp.rename(path, aside);
  const target = join(kept, "lock");
  try {
    await fsp.rename(aside, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    // Another file system: a copy (links as links, a FIFO or device as a note alone), then the original goes.
    const st = await fsp.lstat(aside);
    if (st.isFile() || st.isDirectory() || st.isSymbolicLink())
      await fsp.cp(aside, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true });
    await fsp.rm(aside, { recursive: true, force: true });
  }
  await fsp.writeFile(
    join(kept, "note.json"),
    `${JSON.stringify({ path, what, setAsideAt: new Date().toISOString() }, null, 2)}\n`,
  );
  await fsyncFolder(join(home, "memory-history"));
  return { path, what, keptIn: kept };
}
