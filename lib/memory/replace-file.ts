import { promises as fsp } from "node:fs";
import { join } from "node:path";
import { OdaError } from "../errors";
import { fsyncFolder, makeTempPath, type StagedWrite } from "../fs";
import {
  contentKey,
  listVersionNames,
  nextVersionName,
  readRegularFile,
  removeVersions,
  versionKeys,
  versionsToDrop,
} from "./history";
import { MESSAGES } from "./messages";
import { decodeUtf8 } from "./parse";
import type { MemoryPlace } from "./paths";
import { sha256Hex } from "./read-file";

/**
 * Replacing a memory file that a writer outside Oda Admin (Oda, an editor)
 * may write at the same moment without taking any lock. Other Oda Admin
 * processes are kept out by the home lock; against an outside writer the
 * window is closed as far as the file system allows:
 * - right before the rename, the file is read again: if it is not the state
 *   the change started from, the change starts over ({@link FileMovedError});
 * - the current file is hard-linked aside before the new one is renamed in,
 *   so what the rename replaced stays reachable; when it differs from the
 *   state just kept as a version (a write landed in between), it is moved
 *   into the history as an `external` version. Moving (not copying) the
 *   replaced file means a write still in flight into it lands in the version.
 */

/** The memory file changed between the start of a change and its rename: the change starts over. */
export class FileMovedError extends OdaError {
  constructor() {
    super("conflict", MESSAGES.conflict);
  }
}

async function shaOfFile(path: string): Promise<string | null> {
  try {
    return sha256Hex(await readRegularFile(path, true));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Puts `staged` (null: removes the file) in place of the memory file, which
 * must still hold the bytes with sha256 `expected` (null: must not exist).
 * The set folder is fsynced before this returns.
 */
export async function replaceMemoryFile(
  place: MemoryPlace,
  staged: StagedWrite | null,
  expected: string | null,
  versionsKept: number,
): Promise<void> {
  if ((await shaOfFile(place.file)) !== expected) throw new FileMovedError();
  if (expected === null) {
    if (!staged) return;
    // a create: link() fails on an existing name, so a file created meanwhile is never replaced
    try {
      await fsp.link(staged.temp, place.file);
    } catch (error) {
      await staged.discard();
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new FileMovedError();
      throw error;
    }
    await staged.discard(); // the temp name of the file just linked into place
    await fsyncFolder(place.folder);
    return;
  }
  const aside = makeTempPath(place.file);
  let moved = true;
  try {
    if (staged) await fsp.link(place.file, aside);
    else await fsp.rename(place.file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    moved = false; // removed by someone meanwhile: nothing to keep
  }
  try {
    await staged?.commit();
  } catch (error) {
    if (moved) await fsp.unlink(aside).catch(() => undefined);
    throw error;
  }
  await fsyncFolder(place.folder);
  if (moved) await keepReplaced(place, aside, expected, versionsKept);
}

/** Keeps what the rename replaced when it is not the state `expected` (already kept); removes it otherwise. */
async function keepReplaced(place: MemoryPlace, aside: string, expected: string, versionsKept: number): Promise<void> {
  const bytes = await readRegularFile(aside).catch(() => null);
  if (!bytes || sha256Hex(bytes) === expected) {
    await fsp.unlink(aside).catch(() => undefined);
    return;
  }
  const { mtimeMs } = await fsp.stat(aside);
  const names = await listVersionNames(place.history);
  const name = nextVersionName(names, { source: "external", savedAt: new Date(Math.floor(mtimeMs)).toISOString() });
  const target = join(place.history, name);
  try {
    await fsp.rename(aside, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    // the history on another file system: a copy, then the aside goes
    await fsp.copyFile(aside, target);
    await fsp.unlink(aside);
  }
  await fsyncFolder(place.history);
  const keys = await versionKeys(place.history, names);
  await removeVersions(
    place.history,
    versionsToDrop(names, keys, name, contentKey(decodeUtf8(bytes)), versionsKept).filter((n) => n !== name),
  );
}
