import { unlinkSync } from "node:fs";
import { join } from "node:path";
import { LOCK_FILE } from "../chats/names";
import { OdaError } from "../errors";
import { createLockFile, describeThisProcess, type LockHolder, type LockStatus, readLockStatus } from "../fs/lock";

/**
 * The chat's writer lock, taken the way Oda's writer takes it: `session.lock`
 * created exclusively with this process as holder. A live (or uncheckable)
 * holder refuses with the seed's sentence and nothing is touched. A stale lock
 * is taken over only when it is the one a killed repair left (its content is in
 * that repair's journal); any other stale lock is a person's decision (Free
 * this chat), so the repair refuses.
 */

/** This process as a lock holder, and the lock file content `createLockFile` writes for it. */
export function thisHolder(): { holder: LockHolder; content: string } {
  const holder = describeThisProcess();
  return { holder, content: `${JSON.stringify(holder)}\n` };
}

/** The seed's refusal of a second writer. */
export function lockedSentence(id: string): string {
  return `session "${id}" is already owned by an active write handle`;
}

/**
 * Takes `<dir>/session.lock` for chat `id`. `ownStale` lists lock contents a
 * killed repair left, which may be taken over once provably stale.
 */
export function takeChatLock(dir: string, id: string, holder: LockHolder, ownStale: string[] = []): string {
  const path = join(dir, LOCK_FILE);
  const content = `${JSON.stringify(holder)}\n`;
  if (createLockFile(path, holder)) return content;
  const status = readLockStatus(path);
  if (isOwnLeftover(status, ownStale)) {
    unlinkSync(path);
    if (createLockFile(path, holder)) return content;
  }
  if (status.state === "stale")
    throw new OdaError(
      "refused",
      `Chat "${id}" has a stale session.lock (process ${status.pid}); free the chat first. Nothing was changed.`,
    );
  throw new OdaError("locked", lockedSentence(id));
}

/**
 * True for a lock a killed repair left: its content is one a journal recorded
 * and its holder is gone, or a prefix of such content (the kill came while the
 * lock file was being written, so it reads as garbage).
 */
function isOwnLeftover(status: LockStatus, ownStale: string[]): boolean {
  const raw = status.raw;
  if (raw === undefined) return false;
  if (status.state === "stale") return ownStale.includes(raw);
  return status.state === "unknown" && ownStale.some((own) => own.startsWith(raw) && own !== raw);
}

/** Removes `<dir>/session.lock` when it still holds `content` (ours). */
export function releaseChatLock(dir: string, content: string): void {
  const path = join(dir, LOCK_FILE);
  const status = readLockStatus(path);
  if (status.raw === content) unlinkSync(path);
}

/** Removes a stale lock a killed repair left (its content is `content`); live or foreign locks stay. */
export function clearOwnStaleLock(dir: string, content: string): void {
  const path = join(dir, LOCK_FILE);
  const status = readLockStatus(path);
  if (status.state === "stale" && status.raw === content) unlinkSync(path);
}
