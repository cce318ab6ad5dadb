import { randomBytes } from "node:crypto";
import { constants, promises as fsp } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * The file calls an atomic write makes, swappable so tests can inject faults
 * (write-file-atomic's `test/basic.js` does the same).
 */
export interface AtomicFs {
  open: typeof fsp.open;
  rename: typeof fsp.rename;
  unlink: typeof fsp.unlink;
}

const realFs: AtomicFs = { open: fsp.open, rename: fsp.rename, unlink: fsp.unlink };

/** `.<name>.tmp-<hex>`: the temporary file of a save in progress (or of one interrupted). */
const TEMP_NAME = /^\..+\.tmp-[0-9a-f]{12}$/;

/** True for the name of a temporary file left by {@link writeFileAtomic}. */
export function isTempFileName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/** The temporary name a save of `path` uses. */
export function makeTempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp-${randomBytes(6).toString("hex")}`);
}

/** Flushes a folder's entries (the rename) to disk. Some systems refuse fsync on folders; that is not an error. */
export async function fsyncFolder(folder: string, fs: AtomicFs = realFs): Promise<void> {
  const handle = await fs.open(folder, constants.O_RDONLY);
  try {
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EINVAL" && code !== "EISDIR" && code !== "EPERM") throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `path` with `data` so that a reader, or the disk after a crash, sees
 * either the old bytes or the new ones, never a mix: a temporary file in the
 * same folder, fsync, rename over the target, fsync of the folder. When this
 * resolves, the new bytes are durable.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number; fs?: AtomicFs } = {},
): Promise<void> {
  const fs = options.fs ?? realFs;
  const temp = makeTempPath(path);
  let renamed = false;
  try {
    const handle = await fs.open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      options.mode ?? 0o644,
    );
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, path);
    renamed = true;
    await fsyncFolder(dirname(path), fs);
  } catch (error) {
    if (!renamed) await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * Removes the temporary files of interrupted saves in `folder` that are older
 * than `minAgeMs` (younger ones may belong to a save still running). Returns
 * the names removed. Never throws for a file that vanished meanwhile.
 */
export async function removeLeftoverTemps(
  folder: string,
  options: { minAgeMs?: number; now?: number } = {},
): Promise<string[]> {
  const minAge = options.minAgeMs ?? 60_000;
  const now = options.now ?? Date.now();
  let names: string[];
  try {
    names = await fsp.readdir(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names.filter(isTempFileName)) {
    const path = join(folder, name);
    try {
      const stat = await fsp.lstat(path);
      if (!stat.isFile() || now - stat.mtimeMs < minAge) continue;
      await fsp.unlink(path);
      removed.push(name);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}
