import { promises as fsp } from "node:fs";
import { join } from "node:path";
import {
  ensureFolderInside,
  fsyncFolder,
  type HeldLockFile,
  realRootOf,
  removeLeftoverTemps,
  resolveInside,
  writeFileAtomic,
} from "../fs";
import { commit, loadCurrent } from "./commit";
import type { VersionSource } from "./format";
import { readRegularFile } from "./history";
import type { Limits } from "./limits";
import { checkMemoryId, checkWorkspace } from "./names";
import { placeMemory } from "./paths";
import { readSettings } from "./settings";

/**
 * The journal that makes a bulk change all or nothing across a kill
 * (docs/file-contract.md, Bulk changes). Under the memory lock, once every
 * step is decided and checked, the steps are written to
 * `memory-history/.bulk/pending.json` (atomic, durable) before the first file
 * changes; each step is then an ordinary change (`commit`: version, file,
 * `state.json`). The next holder of the lock, in any process, finds a pending
 * journal and finishes it first: a step whose file already holds its new
 * bytes is done, one whose file still holds the bytes it was planned from is
 * made. So a kill leaves a bulk change either not begun (no journal) or
 * finished by the next change. The finished journal stays as
 * `<bulkId>.json`: what one Undo puts back.
 */

/** One memory's change within a bulk change. */
export interface BulkStep {
  workspace: string | null;
  id: string;
  /** The file's bytes before (base64; null: no file), and their sha256. */
  before: string | null;
  beforeSha: string | null;
  /** The new file's text (null: the memory is deleted), and its sha256. */
  next: string | null;
  nextSha: string | null;
  /** The title the deleted mark keeps (for a delete). */
  title: string;
  source: VersionSource;
}

/** What a bulk change did, kept for its Undo. */
export interface BulkRecord {
  bulkId: string;
  at: string;
  /** What it was: `on`, `off`, `delete`, `restore`, `move` or `undo`. */
  action: string;
  steps: BulkStep[];
}

export const BULK_ID_PATTERN = /^\d{8}T\d{9}Z-[0-9a-f]{6}$/;
const PENDING = "pending.json";
/** Finished bulk changes kept for Undo. */
const RECORDS_KEPT = 50;

async function bulkFolder(home: string): Promise<string> {
  return ensureFolderInside(home, "memory-history", ".bulk");
}

/** Makes one step's change unless its file already holds the new bytes; false when the file holds neither state. */
async function applyStep(
  home: string,
  limits: Limits,
  lock: HeldLockFile,
  step: BulkStep,
  now: string,
): Promise<boolean> {
  // A step read back from the journal on disk: its names are checked like any other input.
  const place = await placeMemory(home, checkWorkspace(step.workspace), checkMemoryId(step.id));
  await removeLeftoverTemps(place.history, { minAgeMs: 0 }).catch(() => undefined);
  const current = await loadCurrent(place, limits);
  const sha = current?.sha256 ?? null;
  if (sha === step.nextSha) return true;
  if (sha !== step.beforeSha) return false;
  await commit(
    { home, realHome: realRootOf(home), place, limits, current, now, options: {}, lock },
    step.next,
    step.source,
    step.title,
  );
  return true;
}

/**
 * Writes the journal, makes every step, then keeps the record; returns the
 * steps whose file changed outside the app between the plan and the write
 * (left as they are).
 */
export async function runBulk(
  home: string,
  limits: Limits,
  lock: HeldLockFile,
  record: BulkRecord,
): Promise<BulkStep[]> {
  const folder = await bulkFolder(home);
  await lock.assertHeld();
  await writeFileAtomic(join(folder, PENDING), JSON.stringify(record));
  return finish(home, limits, lock, folder, record);
}

async function finish(
  home: string,
  limits: Limits,
  lock: HeldLockFile,
  folder: string,
  record: BulkRecord,
): Promise<BulkStep[]> {
  const skipped: BulkStep[] = [];
  for (const step of record.steps) if (!(await applyStep(home, limits, lock, step, record.at))) skipped.push(step);
  await writeFileAtomic(join(folder, `${record.bulkId}.json`), JSON.stringify(record));
  await fsp.unlink(join(folder, PENDING));
  await fsyncFolder(folder);
  await pruneRecords(folder);
  return skipped;
}

async function pruneRecords(folder: string): Promise<void> {
  const names = (await fsp.readdir(folder)).filter((n) => BULK_ID_PATTERN.test(n.replace(/\.json$/, ""))).sort();
  await Promise.all(names.slice(0, -RECORDS_KEPT).map((n) => fsp.unlink(join(folder, n)).catch(() => undefined)));
}

function parseRecord(text: string): BulkRecord | null {
  try {
    const r = JSON.parse(text) as BulkRecord;
    return r && typeof r.bulkId === "string" && BULK_ID_PATTERN.test(r.bulkId) && Array.isArray(r.steps) ? r : null;
  } catch {
    return null;
  }
}

/** Finishes a bulk change a kill interrupted (called under the memory lock before any change). */
export async function finishPendingBulk(home: string, lock: HeldLockFile): Promise<void> {
  const folder = await resolveInside(home, "memory-history", ".bulk");
  const bytes = await readRegularFile(join(folder, PENDING)).catch(() => null);
  if (bytes === null) return;
  const record = parseRecord(bytes.toString("utf8"));
  // a journal cut short cannot be: it is written atomically. One that does not parse was never ours to run.
  if (!record) return void (await fsp.rename(join(folder, PENDING), join(folder, `unreadable-${Date.now()}.json`)));
  const { limits } = await readSettings(home);
  await finish(home, limits, lock, folder, record);
}

/** A finished bulk change's record; null when there is none by that id. */
export async function readBulkRecord(home: string, bulkId: string): Promise<BulkRecord | null> {
  if (!BULK_ID_PATTERN.test(bulkId)) return null;
  const folder = await resolveInside(home, "memory-history", ".bulk");
  const bytes = await readRegularFile(join(folder, `${bulkId}.json`)).catch(() => null);
  return bytes === null ? null : parseRecord(bytes.toString("utf8"));
}
