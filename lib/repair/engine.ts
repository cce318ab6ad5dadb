import { mkdirSync, renameSync, rmdirSync, rmSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { OdaError } from "../errors";
import { fsyncFolder, makeTempPath } from "../fs/atomic";
import { withLockFile } from "../fs/home-lock";
import { MESSAGES } from "../memory/messages";
import { changedSentence, factOfPath, readOdaFile, sameFact, writeVerified } from "./files";
import {
  factOf,
  type Journal,
  type JournalFile,
  journalFolder,
  makeRepairId,
  type RepairKind,
  type RepairLock,
  writeJournal,
} from "./journal";
import { releaseChatLock, takeChatLock, thisHolder } from "./locks";

/**
 * The repair engine, git's lockfile discipline with a journal: under the
 * chat's `session.lock` (or the home's memory lock) the originals are copied
 * into the admin state and the new files written beside their targets and
 * verified; only then does the journal say `swapping`, and renames and
 * removals put the new state in place, each folder fsynced. A kill before
 * `swapping` rolls back (Oda's files were never touched), a kill after it
 * rolls forward (every byte needed is on disk); see `resume.ts`.
 */

/** One file a planned repair changes: its bytes before (null: absent) and after (null: removed). */
export interface PlannedFile {
  path: string;
  before: Buffer | null;
  after: Buffer | null;
}

/** What a planner returns, computed under the lock. */
export interface RepairPlan {
  summary: string;
  files: PlannedFile[];
  dirs?: { create?: string[]; remove?: string[] };
  /** Checks a staged new file (e.g. decodes it and compares every line with the source); throws to stop. */
  verify?: (file: PlannedFile, stagedPath: string) => Promise<void>;
}

/** Options of {@link runRepair}. */
export interface RunOptions {
  state: string;
  kind: RepairKind;
  subject: string;
  lock: RepairLock;
  plan: () => Promise<RepairPlan>;
  /** Folders to make before the lock is taken (an undo putting back a chat folder). */
  makeDirs?: string[];
  undoOf?: string;
  /** Lock contents of killed repairs that may be taken over. */
  ownStale?: string[];
}

/** Runs `fn` holding the repair's lock (the chat's `session.lock`, or the home's memory lock). */
export async function withRepairLock<T>(
  lock: RepairLock,
  holder: ReturnType<typeof thisHolder>,
  ownStale: string[],
  fn: () => Promise<T>,
): Promise<T> {
  if (lock.type === "memory") {
    const folder = join(lock.home, "memory-history");
    mkdirSync(folder, { recursive: true });
    const busy = () => new OdaError("locked", MESSAGES.busy);
    return withLockFile(join(folder, ".lock"), { busy }, () => fn());
  }
  takeChatLock(lock.dir, lock.id, holder.holder, ownStale);
  try {
    return await fn();
  } finally {
    releaseChatLock(lock.dir, holder.content);
  }
}

/** Puts the staged state in place. Idempotent: a resume after a kill runs it again. */
export async function swapFiles(journal: Journal): Promise<void> {
  for (const dir of journal.dirs.create) mkdirSync(dir, { recursive: true });
  for (const f of journal.files) {
    const now = factOfPath(f.path);
    if (f.after) {
      if (readOdaFile(f.after.temp) !== null) {
        if (!sameFact(now, f.before) && !sameFact(now, f.after))
          throw new OdaError("conflict", changedSentence(f.path));
        renameSync(f.after.temp, f.path);
      } else if (!sameFact(now, f.after)) throw new OdaError("conflict", changedSentence(f.path));
    } else if (now) {
      if (!sameFact(now, f.before)) throw new OdaError("conflict", changedSentence(f.path));
      unlinkSync(f.path);
    }
    await fsyncFolder(dirname(f.path));
  }
}

/** Removes the folders a finished repair empties (after its lock file is gone). */
export async function removeEmptiedDirs(journal: Journal): Promise<void> {
  for (const dir of journal.dirs.remove) {
    try {
      rmdirSync(dir);
      await fsyncFolder(dirname(dir));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

/** Removes what a repair staged before `swapping` (temporary files, copies, made folders): Oda's files are untouched. */
export async function discardStaged(state: string, journal: Journal): Promise<void> {
  for (const f of journal.files) if (f.after) rmSync(f.after.temp, { force: true });
  rmSync(join(journalFolder(state, journal.id), "files"), { recursive: true, force: true });
  for (const dir of journal.dirs.create.slice().reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      // not empty (someone else's files) or gone: left as it is
    }
  }
}

/** Copies originals into the journal folder and stages new files beside their targets, verifying each. */
async function stage(state: string, journal: Journal, plan: RepairPlan): Promise<void> {
  const filesDir = join(journalFolder(state, journal.id), "files");
  mkdirSync(filesDir, { recursive: true });
  for (const [i, f] of plan.files.entries()) {
    const entry = journal.files[i] as JournalFile;
    if (f.before && entry.before) writeVerified(join(journalFolder(state, journal.id), entry.before.keep), f.before);
    if (f.after && entry.after) {
      mkdirSync(dirname(f.path), { recursive: true });
      writeVerified(entry.after.temp, f.after);
      await plan.verify?.(f, entry.after.temp);
    }
  }
  await fsyncFolder(filesDir);
  for (const dir of new Set(plan.files.filter((f) => f.after).map((f) => dirname(f.path)))) await fsyncFolder(dir);
}

function journalFiles(plan: RepairPlan): JournalFile[] {
  return plan.files.map((f, i) => ({
    path: f.path,
    before: f.before ? { ...factOf(f.before), keep: `files/${i}-${f.path.split(/[\\/]/).pop()}` } : null,
    after: f.after ? { ...factOf(f.after), temp: makeTempPath(f.path) } : null,
  }));
}

/** Runs one repair to its end; returns the finished journal. Refusals leave every byte as it was. */
export async function runRepair(options: RunOptions): Promise<Journal> {
  const { state } = options;
  const holder = thisHolder();
  const journal: Journal = {
    id: makeRepairId(options.kind, options.subject),
    kind: options.kind,
    subject: options.subject,
    summary: "",
    createdAt: new Date().toISOString(),
    phase: "locking",
    lock: options.lock,
    holder: holder.content,
    files: [],
    dirs: { create: options.makeDirs ?? [], remove: [] },
    ...(options.undoOf ? { undoOf: options.undoOf } : {}),
  };
  await writeJournal(state, journal);
  for (const dir of journal.dirs.create) mkdirSync(dir, { recursive: true });
  try {
    await withRepairLock(options.lock, holder, options.ownStale ?? [], async () => {
      const plan = await options.plan();
      journal.summary = plan.summary;
      journal.files = journalFiles(plan);
      journal.dirs = {
        create: [...journal.dirs.create, ...(plan.dirs?.create ?? [])],
        remove: plan.dirs?.remove ?? [],
      };
      journal.phase = "staging";
      await writeJournal(state, journal);
      await stage(state, journal, plan);
      journal.phase = "swapping";
      await writeJournal(state, journal);
      await swapFiles(journal);
    });
  } catch (error) {
    if (journal.phase === "locking") {
      // refused before anything was staged (a live writer, a busy memory lock): no trace is left
      await discardStaged(state, journal);
      rmSync(journalFolder(state, journal.id), { recursive: true, force: true });
    } else if (journal.phase !== "swapping") {
      await discardStaged(state, journal);
      journal.phase = "rolled-back";
      journal.note = (error as Error).message;
      journal.finishedAt = new Date().toISOString();
      await writeJournal(state, journal);
    }
    throw error;
  }
  await removeEmptiedDirs(journal);
  journal.phase = "done";
  journal.finishedAt = new Date().toISOString();
  await writeJournal(state, journal);
  return journal;
}
