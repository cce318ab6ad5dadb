import { existsSync } from "node:fs";
import { isOdaError } from "../errors";
import { judgeHolder, parseLockContent } from "../fs/lock";
import { discardStaged, removeEmptiedDirs, swapFiles, withRepairLock } from "./engine";
import { type Journal, listJournals, writeJournal } from "./journal";
import { clearOwnStaleLock, thisHolder } from "./locks";
import { markUndone } from "./undo";

/**
 * Settles repairs a stop interrupted. A journal before `swapping` is rolled
 * back (temporary files and copies removed; Oda's files were never touched); a
 * journal in `swapping` is finished (the staged files renamed into place, the
 * originals removed). Both take the repair's lock first, taking over the stale
 * lock the killed repair left. A repair whose process still runs is left alone.
 */

/** What resume did (or, with `dryRun`, would do) with one journal. */
export interface ResumeOutcome {
  id: string;
  kind: string;
  subject: string;
  action: "finished" | "rolled back" | "left running" | "failed";
  message?: string;
}

function stillRunning(journal: Journal): boolean {
  const holder = parseLockContent(journal.holder);
  return holder !== null && judgeHolder(holder).state !== "stale";
}

async function settle(state: string, journal: Journal): Promise<ResumeOutcome["action"]> {
  const forward = journal.phase === "swapping";
  const lockDirGone = journal.lock.type === "chat" && !existsSync(journal.lock.dir);
  const work = async () => {
    if (forward) await swapFiles(journal);
    else await discardStaged(state, journal);
  };
  if (lockDirGone) await work();
  else await withRepairLock(journal.lock, thisHolder(), [journal.holder], work);
  if (journal.lock.type === "chat" && existsSync(journal.lock.dir)) clearOwnStaleLock(journal.lock.dir, journal.holder);
  if (forward) await removeEmptiedDirs(journal);
  else if (!lockDirGone) await discardStaged(state, journal);
  journal.phase = forward ? "done" : "rolled-back";
  journal.finishedAt = new Date().toISOString();
  if (!forward) journal.note = "Interrupted before any file was swapped; rolled back by resume.";
  await writeJournal(state, journal);
  if (forward && journal.undoOf) await markUndone(state, journal.undoOf, journal.id);
  return forward ? "finished" : "rolled back";
}

/** Finishes or rolls back every interrupted repair, oldest first. */
export async function resumeRepairs(state: string, options: { dryRun?: boolean } = {}): Promise<ResumeOutcome[]> {
  const open = listJournals(state)
    .filter((j) => j.phase === "locking" || j.phase === "staging" || j.phase === "swapping")
    .reverse();
  const out: ResumeOutcome[] = [];
  for (const journal of open) {
    const base = { id: journal.id, kind: journal.kind, subject: journal.subject };
    if (stillRunning(journal)) {
      out.push({ ...base, action: "left running" });
      continue;
    }
    if (options.dryRun) {
      out.push({ ...base, action: journal.phase === "swapping" ? "finished" : "rolled back" });
      continue;
    }
    try {
      out.push({ ...base, action: await settle(state, journal) });
    } catch (error) {
      out.push({ ...base, action: "failed", message: isOdaError(error) ? error.message : String(error) });
    }
  }
  return out;
}
