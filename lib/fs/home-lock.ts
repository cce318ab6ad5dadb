import { randomBytes } from "node:crypto";
import { constants, promises as fsp } from "node:fs";
import type { OdaError } from "../errors";
import { describeThisProcess, judgeHolder, type LockHolder, parseLockContent } from "./lock";

/**
 * A lock file shared by every Oda Admin process (servers, CLI), with the
 * `session.lock` rules (`shared/oda-files.md`, One writer; What Oda Admin
 * itself writes): `{"pid", "host", "startedAt"}`, created exclusively; a
 * holder that is provably gone is taken over; a live one is waited for
 * briefly, polling with backoff (never blocking the event loop), then the
 * caller is refused. Within one process, holders queue (the file names a
 * process, so a second holder in the same process would wait for itself).
 */

/** Options of {@link withLockFile}. */
export interface LockFileOptions {
  /** How long to wait for a live holder before refusing (default 5 s). */
  waitMs?: number;
  /** The refusal when the wait runs out. */
  busy: () => OdaError;
}

/** A lock this process holds. */
export interface HeldLockFile {
  path: string;
  /** Refuses (with the busy sentence) unless the file still names this holder: checked right before writes. */
  assertHeld(): Promise<void>;
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier holder of `key` in this process. */
async function queue<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  try {
    return await run;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
}

let self: LockHolder | undefined;
function holderContent(): string {
  self ??= describeThisProcess();
  return `${JSON.stringify(self)}\n`;
}

/** The lock file's content; null when it is absent. A FIFO or other odd file reads as "" (unknown, so live). */
async function readLock(path: string): Promise<string | null> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? null : "";
  }
  try {
    return (await handle.stat()).isFile() ? await handle.readFile("utf8") : "";
  } finally {
    await handle.close();
  }
}

/**
 * Creates the lock with its whole content at once: written beside it, then
 * hard-linked into place (`link` fails when the name exists, like `O_EXCL`),
 * so no process ever sees it empty or half written, and a kill leaves either
 * no lock or a complete one that names a dead process.
 */
async function createLock(path: string, content: string): Promise<boolean> {
  const temp = `${path}.new-${randomBytes(6).toString("hex")}`;
  await fsp.writeFile(temp, content, { flag: "wx" });
  try {
    await fsp.link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await fsp.unlink(temp).catch(() => undefined);
  }
}

/**
 * Takes a stale lock away without racing another process doing the same:
 * the lock is renamed aside to a unique name (atomic: of two processes, one
 * gets the file), and only when what was moved is still the stale content
 * judged is it removed. Otherwise a fresh lock was moved (another process
 * took over first and created its own): it is linked back without
 * overwriting anything.
 */
async function removeStale(path: string, staleRaw: string): Promise<void> {
  const aside = `${path}.stale-${randomBytes(6).toString("hex")}`;
  try {
    await fsp.rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const moved = await readLock(aside);
  if (moved !== staleRaw) await fsp.link(aside, path).catch(() => undefined);
  await fsp.unlink(aside).catch(() => undefined);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function acquire(path: string, content: string, options: LockFileOptions): Promise<void> {
  const deadline = Date.now() + (options.waitMs ?? 5000);
  let delay = 2;
  for (;;) {
    if (await createLock(path, content)) return;
    const raw = await readLock(path);
    if (raw === null) continue; // released meanwhile
    const holder = parseLockContent(raw);
    if (holder && judgeHolder(holder).state === "stale") {
      await removeStale(path, raw);
      continue;
    }
    if (Date.now() >= deadline) throw options.busy();
    await sleep(delay);
    delay = Math.min(delay * 2, 100);
  }
}

/**
 * Runs `fn` while holding the lock file at `path` (its folder must exist),
 * then removes the file if it still names this process.
 */
export async function withLockFile<T>(
  path: string,
  options: LockFileOptions,
  fn: (lock: HeldLockFile) => Promise<T>,
): Promise<T> {
  return queue(path, async () => {
    const content = holderContent();
    await acquire(path, content, options);
    const held: HeldLockFile = {
      path,
      async assertHeld() {
        if ((await readLock(path)) !== content) throw options.busy();
      },
    };
    try {
      return await fn(held);
    } finally {
      if ((await readLock(path).catch(() => null)) === content) await fsp.unlink(path).catch(() => undefined);
    }
  });
}
