import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic";

/**
 * A repair's journal (`<state>/repairs/<id>/journal.json`): what is done,
 * every file's path, size and SHA-256 before and after, where the original
 * bytes are kept and where the new ones were staged. It is rewritten
 * atomically at each phase, so after a kill the next start (or `repair
 * resume`) knows whether to roll back (nothing in Oda's folders changed yet)
 * or to finish (every byte needed is already on disk).
 */

/**
 * - `form`: a log converted to the folder's form;
 * - `duplicate`: one copy of a chat stored in two places set aside;
 * - `memory`: a problem memory file set aside;
 * - `archive`: older log generations moved into the admin state;
 * - `undo`: puts back what another repair changed.
 */
export type RepairKind = "form" | "duplicate" | "memory" | "archive" | "undo";

/**
 * - `locking`: the lock is being taken; nothing else happened yet;
 * - `staging`: originals are being copied into the journal folder and new files
 *   written beside their targets under temporary names; Oda's files unchanged;
 * - `swapping`: everything is staged and verified; renames and removals run;
 * - `done`, `rolled-back`: finished either way.
 */
export type RepairPhase = "locking" | "staging" | "swapping" | "done" | "rolled-back";

/** Size and SHA-256 of a file's bytes. */
export interface FileFact {
  size: number;
  sha256: string;
}

/** One file a repair changes: present before (kept), present after (staged), or both (replaced). */
export interface JournalFile {
  path: string;
  /** The file as it was; `keep` is its copy, relative to the journal folder. */
  before: (FileFact & { keep: string }) | null;
  /** The file as the repair leaves it; `temp` is where it was staged beside the target. */
  after: (FileFact & { temp: string }) | null;
}

/** Which lock a repair holds. */
export type RepairLock = { type: "chat"; id: string; dir: string } | { type: "memory"; home: string };

/** The whole journal. */
export interface Journal {
  id: string;
  kind: RepairKind;
  /** The chat id, or the memory's path relative to the home. */
  subject: string;
  /** One sentence saying what the repair does. */
  summary: string;
  createdAt: string;
  phase: RepairPhase;
  lock: RepairLock;
  /** The lock file content this repair wrote, so a resume may take over its own stale lock. */
  holder: string;
  files: JournalFile[];
  /** Folders made before the files are put in place, and folders removed after. */
  dirs: { create: string[]; remove: string[] };
  /** For `undo`: the repair undone. */
  undoOf?: string;
  /** Set on a repair once an undo of it finished. */
  undoneBy?: string;
  finishedAt?: string;
  /** Why a resume rolled it back or could not finish it. */
  note?: string;
}

/** SHA-256 (hex) of bytes. */
export function sha256Of(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Size and SHA-256 of bytes. */
export function factOf(bytes: Uint8Array): FileFact {
  return { size: bytes.length, sha256: sha256Of(bytes) };
}

/** `<state>/repairs`. */
export function repairsFolder(state: string): string {
  return join(state, "repairs");
}

/** `YYYYMMDDTHHMMSSmmmZ` in UTC, as version names use. */
function moment(date: Date): string {
  return date.toISOString().replace(/[-:.]/g, "");
}

/** The journal folder name: `<moment>-<kind>-<subject>` with the subject made safe for a file name. */
export function makeRepairId(kind: RepairKind, subject: string, now = new Date()): string {
  const safe = subject.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 60) || "_";
  const suffix = createHash("sha256").update(`${subject}\0${Math.random()}`).digest("hex").slice(0, 6);
  return `${moment(now)}-${kind}-${safe}-${suffix}`;
}

const ID = /^[0-9]{8}T[0-9]{9}Z-[a-z]+-[A-Za-z0-9._-]+$/;

/** True for a repair id (a journal folder name); ids are data, never joined unchecked. */
export function isRepairId(id: string): boolean {
  return ID.test(id) && !id.includes("..");
}

/** The journal folder of a repair. */
export function journalFolder(state: string, id: string): string {
  return join(repairsFolder(state), id);
}

/** Writes the journal atomically (temporary file, fsync, rename, folder fsync). */
export async function writeJournal(state: string, journal: Journal): Promise<void> {
  const dir = journalFolder(state, journal.id);
  mkdirSync(dir, { recursive: true });
  await writeFileAtomic(join(dir, "journal.json"), `${JSON.stringify(journal, null, 2)}\n`);
}

/** Reads one journal; `null` when the folder holds none (a folder made by a kill before its first write). */
export function readJournal(state: string, id: string): Journal | null {
  if (!isRepairId(id)) return null;
  try {
    return JSON.parse(readFileSync(join(journalFolder(state, id), "journal.json"), "utf8")) as Journal;
  } catch {
    return null;
  }
}

/** Every journal, newest first. */
export function listJournals(state: string): Journal[] {
  const dir = repairsFolder(state);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter(isRepairId)
    .sort()
    .reverse()
    .map((id) => readJournal(state, id))
    .filter((j): j is Journal => j !== null);
}
