import { join } from "node:path";
import { type LockStatus, readLockStatus } from "../fs/lock";
import { systemErrorAsOda } from "../fs/system-error";
import { type Generation, listGenerations, readChatFolder } from "./chat";
import { type ChatLocation, locateChat } from "./folder";
import { LOCK_FILE } from "./names";

/** A chat found by its folder alone: where it is, its log generations and its lock, without reading a log. */
export interface ChatOutline {
  location: ChatLocation;
  generations: Generation[];
  lock: LockStatus;
}

/**
 * The cheap part of `readChat`: a folder listing and the lock file, so a page
 * can show a chat of any size at once and read its details afterwards.
 */
export function outlineChat(logDir: string, id: string, options: { compress?: boolean } = {}): ChatOutline {
  const location = locateChat(logDir, id);
  let files: ReturnType<typeof readChatFolder>;
  try {
    files = readChatFolder(location);
  } catch (error) {
    // A chat folder the system would not list: its page explains with the sentence instead of failing.
    throw systemErrorAsOda(error);
  }
  const lockBlocked = files.blocked.get(LOCK_FILE);
  return {
    location,
    generations: listGenerations(location.dir, files, options.compress ?? true),
    lock: lockBlocked
      ? { state: "unknown", reason: lockBlocked.message }
      : files.names.includes(LOCK_FILE)
        ? readLockStatus(join(location.dir, LOCK_FILE))
        : { state: "none", reason: "No lock file." },
  };
}
