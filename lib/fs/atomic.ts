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

// looked up on each call, so a test's spy on `fs.promises` sees every call
const realFs: AtomicFs = {
  open: ((...args: Parameters<typeof fsp.open>) => fsp.open(...args)) as typeof fsp.open,
  rename: (...args) => fsp.rename(...args),
  unlink: (...args) => fsp.unlink(...args),
};

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

/**
 * Marks a system error with the file a save was writing (`target`): a failed write or fsync names no file
 * (the call had only a descriptor), and a failed open names the temporary file, not the one being saved.
 */
export interface TargetedError extends NodeJS.ErrnoException {
  target?: string;
}

function tagTarget(error: unknown, target: string): unknown {
  if (error && typeof error === "object" && (error as TargetedError).target === undefined)
    (error as TargetedError).target = target;
  return error;
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
 * A write prepared under a temporary name in the target's folder: the bytes
 * are written and fsynced, invisible to readers, so that several writes can be
 * prepared at once and put in place in the order their durability requires.
 */
export interface StagedWrite {
  path: string;
  temp: string;
  /** Renames the temporary file over `path`. Durable once the folder is fsynced ({@link fsyncFolder}). */
  commit(): Promise<void>;
  /** Removes the temporary file (after a failure; never throws). */
  discard(): Promise<void>;
}

/** Writes `data` to a temporary file beside `path` and fsyncs it; see {@link StagedWrite}. */
export async function stageFile(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number; fs?: AtomicFs } = {},
): Promise<StagedWrite> {
  const fs = options.fs ?? realFs;
  const temp = makeTempPath(path);
  let done = false;
  const discard = async () => {
    if (!done) await fs.unlink(temp).catch(() => undefined);
  };
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
  } catch (error) {
    await discard();
    throw tagTarget(error, path);
  }
  return {
    path,
    temp,
    async commit() {
      try {
        await fs.rename(temp, path);
        done = true;
      } catch (error) {
        await discard();
        throw tagTarget(error, path);
      }
    },
    discard,
  };
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
  const staged = await stageFile(path, data, options);
  await staged.commit();
  await fsyncFolder(dirname(path), options.fs ?? realFs);
}

/**
 * Settles prepared steps together: when any fails, the writes that were
 * staged are discarded (their temporary files removed) and the first error is
 * thrown, so a failed save leaves nothing half-prepared behind.
 */
export async function settleStaged<T extends readonly unknown[]>(steps: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const results = await Promise.allSettled(steps);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (!failed) return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
  await Promise.all(
    results.map((r) => (r.status === "fulfilled" && isStaged(r.value) ? r.value.discard() : Promise.resolve())),
  );
  throw failed.reason;
}

function isStaged(value: unknown): value is StagedWrite {
  return typeof value === "object" && value !== null && typeof (value as StagedWrite).discard === "function";
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
      // With no minimum age every temporary file goes: `Date.now()` is whole milliseconds, so a file written
      // in the current one has an mtime up to a millisecond "ahead" of it, which a `< 0` test would keep.
      if (!stat.isFile() || (minAge > 0 && now - stat.mtimeMs < minAge)) continue;
      await fsp.unlink(path);
      removed.push(name);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}
