import { type Dirent, readdirSync, realpathSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { describeFileKind, notRegularMessage } from "../fs/open-regular";
import { isInside } from "../fs/safe-path";
import { isSystemError, systemErrorSentence } from "../fs/system-error";
import { withRawLog } from "./problem";

/**
 * Symbolic links and special files in the log folder. A link that stays inside
 * the log folder is followed (Oda itself never makes one, but a person may, to
 * move a group or share a chat folder); one that leads outside, loops or leads
 * nowhere is refused with a sentence and never read. Only entries the folder
 * listing reports as links are resolved, so an ordinary folder costs nothing more.
 * A link swapped between this check and an open is not caught (there is no
 * portable "open inside" call); the window is the one `resolveInside` has.
 */

/** `<path> is a symbolic link that leads outside the log folder; it is not read.` */
export function linkOutsideSentence(path: string): string {
  return `${path} is a symbolic link that leads outside the log folder; it is not read.`;
}

/** `<path> is a symbolic link loop; it is not read.` */
export function linkLoopSentence(path: string): string {
  return `${path} is a symbolic link loop; it is not read.`;
}

/** `<path> is a symbolic link to nothing (its target does not exist); it is not read.` */
export function linkBrokenSentence(path: string): string {
  return `${path} is a symbolic link to nothing (its target does not exist); it is not read.`;
}

/** `<path> is a FIFO (named pipe), not a folder; it is not read.` (any kind of entry but a folder). */
export function notFolderSentence(path: string, stat: Parameters<typeof describeFileKind>[0]): string {
  return `${path} is ${describeFileKind(stat)}, not a folder; it is not read.`;
}

function cannotReadSentence(path: string, error: unknown): string {
  if (isSystemError(error)) return systemErrorSentence(error, path);
  return `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}); it is not read.`;
}

/** The log folder's real path, against which every link is judged. */
export function realLogRoot(logDir: string): string {
  return realpathSync.native(logDir);
}

/**
 * Follows a symbolic link found in the log folder: the stat of what it leads
 * to when that stays inside `realRoot`, else the sentence that refuses it.
 */
export function followLink(realRoot: string, path: string): { stat: Stats } | { refused: string; outside: boolean } {
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return { refused: linkLoopSentence(path), outside: false };
    if (code === "ENOENT" || code === "ENOTDIR") return { refused: linkBrokenSentence(path), outside: false };
    return { refused: cannotReadSentence(path, error), outside: false };
  }
  if (!isInside(realRoot, real)) return { refused: linkOutsideSentence(path), outside: true };
  try {
    return { stat: statSync(real) };
  } catch (error) {
    return { refused: cannotReadSentence(path, error), outside: false };
  }
}

/** A folder of the log folder, sorted: its sub-folders (links inside followed) and its refused entries. */
export interface FolderListing {
  folders: string[];
  /** Entries that are not folders where folders belong, and refused links: path and sentence. */
  refused: { path: string; message: string; link: boolean }[];
}

/**
 * Lists the sub-folders of `dir` (a log folder or a group). Anything else there
 * (a file, a FIFO, a socket, a link that leaves the folder or loops) is refused
 * with a sentence: the layout has only folders at these two levels.
 */
export function listFolders(dir: string, realRoot: string): FolderListing {
  return sortFolders(dir, readdirSync(dir, { withFileTypes: true }), realRoot);
}

/** `listFolders` of entries already read from `dir` (a walk that reads a large group a part at a time). */
export function sortFolders(dir: string, entries: Dirent[], realRoot: string): FolderListing {
  const folders: string[] = [];
  const refused: FolderListing["refused"] = [];
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.isDirectory()) {
      folders.push(e.name);
      continue;
    }
    const path = join(dir, e.name);
    if (!e.isSymbolicLink()) {
      refused.push({ path, message: notFolderSentence(path, e), link: false });
      continue;
    }
    const target = followLink(realRoot, path);
    if ("refused" in target) refused.push({ path, message: target.refused, link: true });
    else if (target.stat.isDirectory()) folders.push(e.name);
    else refused.push({ path, message: notFolderSentence(path, target.stat), link: false });
  }
  return { folders, refused };
}

/** A chat folder's entry that must not be opened, and the problem it is. */
export interface BlockedEntry {
  kind: "link" | "special" | "system";
  message: string;
}

/**
 * Screens a chat folder's entries named like its files (`isChatFile`: the logs,
 * the checkpoint, the lock): a link is followed only inside the log folder, and
 * what is found must be a regular file. Returns every entry's name and the
 * blocked ones with their sentence (logs' sentences end with the raw log note).
 */
export function screenChatFolder(
  dir: string,
  realRoot: string,
  isChatFile: (name: string) => "log" | "other" | null,
): { names: string[]; blocked: Map<string, BlockedEntry> } {
  const names: string[] = [];
  const blocked = new Map<string, BlockedEntry>();
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    names.push(e.name);
    if (e.isFile()) continue;
    const role = isChatFile(e.name);
    if (!role) continue;
    const path = join(dir, e.name);
    const note = (m: string) => (role === "log" ? withRawLog(m, path) : m);
    if (!e.isSymbolicLink()) {
      blocked.set(e.name, { kind: "special", message: note(notRegularMessage(path, e)) });
      continue;
    }
    const target = followLink(realRoot, path);
    if ("refused" in target) blocked.set(e.name, { kind: "link", message: note(target.refused) });
    else if (!target.stat.isFile())
      blocked.set(e.name, { kind: "special", message: note(notRegularMessage(path, target.stat)) });
  }
  return { names, blocked };
}
