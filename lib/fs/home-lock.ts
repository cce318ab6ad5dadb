import { randomBytes } from "node:crypto";
import { constants, promises as fsp, type Stats } from "node:fs";
import { dirname } from "node:path";
import type { OdaError } from "../errors";
import { fsyncFolder } from "./atomic";
import { describeThisProcess, judgeHolder, type LockHolder, parseLockContent } from "./lock";

/**
 * A lock file shared by every Oda Admin process (servers, CLI), with the
 * `session.lock` rules (`docs/file-contract.md`, One writer; What Oda Admin
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
  /**
   * The refusal when the name holds something that is not a lock (a folder, a FIFO, a link, an empty file,
   * other text) or names a holder that cannot be checked: `problem` is {@link brokenLockSentence}'s.
   */
  broken?: (problem: string) => OdaError;
}

/** What is at a lock's name, as {@link inspectLockFile} finds it. */
export type LockInspection =
  | { state: "absent" }
  /** A readable lock: its holder is alive, stale or on another computer (`judged`). */
  | { state: "held"; raw: string; holder: LockHolder; judged: ReturnType<typeof judgeHolder> }
  /** Not a lock: `what` says in words what it is instead. */
  | { state: "broken"; what: string };

/**
 * Looks at a lock's name without following a link or blocking on a FIFO. Only a regular file holding a
 * `{"pid", "host", "startedAt"}` is a lock; anything else is "broken" with what it is (issue 24: a folder,
 * a FIFO, an empty file, garbage or a dangling link there refused every memory change as "busy", forever).
 */
export async function inspectLockFile(path: string): Promise<LockInspection> {
  let st: Stats;
  try {
    st = await fsp.lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { state: "absent" };
    return { state: "broken", what: `cannot be looked at (the system answered ${code ?? "an unknown error"})` };
  }
  if (st.isSymbolicLink()) {
    const target = await fsp.readlink(path).catch(() => "?");
    const exists = await fsp.stat(path).then(
      () => true,
      () => false,
    );
    return { state: "broken", what: `a symbolic link to ${target}${exists ? "" : ", which does not exist"}` };
  }
  if (st.isDirectory()) return { state: "broken", what: "a folder" };
  if (st.isFIFO()) return { state: "broken", what: "a FIFO (named pipe)" };
  if (st.isSocket()) return { state: "broken", what: "a socket" };
  if (st.isCharacterDevice() || st.isBlockDevice()) return { state: "broken", what: "a device" };
  const raw = await readLock(path).catch((error: NodeJS.ErrnoException) => {
    return { error: error.code ?? "an unknown error" };
  });
  if (raw === null) return { state: "absent" };
  if (typeof raw !== "string")
    return { state: "broken", what: `a file that cannot be read (the system answered ${raw.error})` };
  if (raw === "") return { state: "broken", what: "an empty file" };
  const holder = parseLockContent(raw);
  if (!holder)
    return {
      state: "broken",
      what: `a ${Buffer.byteLength(raw)}-byte file that does not hold a lock's {"pid", "host", "startedAt"}`,
    };
  return { state: "held", raw, holder, judged: judgeHolder(holder) };
}

/** The sentence for a lock's name that holds no usable lock (the doctor's problem, a change's refusal). */
export function brokenLockSentence(path: string, what: string): string {
  return `${path} is ${what}; no Oda Admin process on this computer holds it, and no memory can be changed while it is there. Check that no Oda Admin process is changing memories, then set it aside with oda-admin repair apply ${HOME_LOCK_REPAIR} (it is kept in the admin state).`;
}

/** The repair id that sets a broken or stale home lock aside. */
export const HOME_LOCK_REPAIR = "lock:memory-history";

/**
 * The problem at a lock's name, or null: a broken one, or a readable one whose holder cannot be checked
 * from here (another computer). A live holder is no problem; a stale one is taken over by the next change.
 */
export async function lockFileProblem(path: string): Promise<string | null> {
  const seen = await inspectLockFile(path);
  if (seen.state === "broken") return brokenLockSentence(path, seen.what);
  if (seen.state === "held" && seen.judged.state === "unknown")
    return brokenLockSentence(
      path,
      `the lock of process ${seen.holder.pid} on another computer (${seen.holder.host}), which cannot be checked from here`,
    );
  return null;
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

/**
 * The lock file's content; null when it is absent. A FIFO or other odd file reads as "" (no lock's
 * content); an open the system refuses (a link, a permission) throws.
 */
async function readLock(path: string): Promise<string | null> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    return (await handle.stat()).isFile() ? await handle.readFile("utf8") : "";
  } finally {
    await handle.close();
  }
}

/** `readLock` for a comparison with content this process wrote: anything unreadable is not it. */
async function readLockOrEmpty(path: string): Promise<string | null> {
  return readLock(path).catch(() => "");
}

/**
 * Creates the lock with its whole content at once: written beside it, then
 * hard-linked into place (`link` fails when the name exists, like `O_EXCL`),
 * so no process ever sees it empty or half written, and a kill leaves either
 * no lock or a complete one that names a dead process.
 */
async function createLock(path: string, content: string): Promise<boolean> {
  const temp = `${path}.new-${randomBytes(6).toString("hex")}`;
  // Written and synced before it is linked: after a power loss the name holds the whole content or nothing.
  const handle = await fsp.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fsp.link(temp, path);
    await fsyncFolder(dirname(path));
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
  const moved = await readLockOrEmpty(aside);
  if (moved !== staleRaw) await fsp.link(aside, path).catch(() => undefined);
  await fsp.unlink(aside).catch(() => undefined);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function acquire(path: string, content: string, options: LockFileOptions): Promise<void> {
  const deadline = Date.now() + (options.waitMs ?? 5000);
  let delay = 2;
  for (;;) {
    if (await createLock(path, content)) return;
    const seen = await inspectLockFile(path);
    if (seen.state === "absent") continue; // released meanwhile
    if (seen.state === "held" && seen.judged.state === "stale") {
      await removeStale(path, seen.raw);
      continue;
    }
    // What holds no lock at all would never go away by itself: refused at once. Another computer's lock may
    // be released like a live one, so it is waited for as briefly, but it can never be judged from here:
    // it is refused as the problem it is, never taken over.
    const unknown = seen.state === "held" && seen.judged.state === "unknown";
    if (seen.state === "broken" || (unknown && Date.now() >= deadline)) {
      const problem = (await lockFileProblem(path)) ?? brokenLockSentence(path, "not a lock");
      throw options.broken ? options.broken(problem) : options.busy();
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
        if ((await readLockOrEmpty(path)) !== content) throw options.busy();
      },
    };
    try {
      return await fn(held);
    } finally {
      if ((await readLockOrEmpty(path)) === content) await fsp.unlink(path).catch(() => undefined);
    }
  });
}
