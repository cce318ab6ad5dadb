import { existsSync, lstatSync } from "node:fs";
import { join, sep } from "node:path";
import { OdaError } from "../errors";
import { followLink, listFolders, realLogRoot } from "./links";
import { decodeName, encodeName, parseGroupName } from "./names";

/** Where a chat's folder is. */
export interface ChatLocation {
  id: string;
  /** The chat folder, relative to the log folder (`--%2Fhome--/c-1`). */
  folder: string;
  /** The group folder's name. */
  group: string;
  /** The working folder the group names (`null` for `_no-cwd`). */
  cwd: string | null;
  /** The chat folder's absolute path. */
  dir: string;
  /** The log folder's real path: every link met inside the chat folder must stay in it. */
  root: string;
}

/** One problem the reader found, with the exact sentence to show. */
export interface Problem {
  /**
   * - `name`: a folder name that does not decode (not a chat);
   * - `duplicate`: the same chat in two places (both refused);
   * - `form`: a log of the other form than the folder keeps;
   * - `no-log`: a chat folder without a log;
   * - `identity`: a header that names another chat or working folder;
   * - `line`: a complete line that is not a JSON object;
   * - `tail`: an unfinished piece at the end (cut frame, unfinished line);
   * - `unreadable`: a log that cannot be decoded;
   * - `cache`: a checkpoint that cannot be read, or that no longer fits its
   *   log and was discarded (the sentence gives the reason);
   * - `lock`: a stale `session.lock` (the sentence names its holder and why it is stale);
   * - `link`: a symbolic link that leads outside the log folder, loops or leads nowhere (never read);
   * - `special`: an entry of the wrong kind: a FIFO, socket or device named like a log,
   *   checkpoint or lock, or anything but a folder where a group or chat folder belongs (never read).
   */
  kind:
    | "name"
    | "duplicate"
    | "form"
    | "no-log"
    | "identity"
    | "line"
    | "tail"
    | "unreadable"
    | "cache"
    | "lock"
    | "link"
    | "special";
  path: string;
  message: string;
}

/** The chats of a log folder and the folder-level problems, found by reading folder names only. */
export interface FolderWalk {
  chats: ChatLocation[];
  problems: Problem[];
}

/** The sub-folders of `dir`; its other entries become problems. */
function subfolders(dir: string, root: string, problems: Problem[]): string[] {
  const listing = listFolders(dir, root);
  for (const r of listing.refused)
    problems.push({ kind: r.link ? "link" : "special", path: r.path, message: r.message });
  return listing.folders;
}

/**
 * Walks a log folder: groups `--<working folder>--` and `_no-cwd`, then chat
 * folders, decoding both names. A name that does not decode is a problem, not
 * a chat; a chat id found in two places is refused, naming both paths. Links
 * that stay inside the log folder are followed; one that leads outside, loops
 * or leads nowhere, and anything but a folder at these two levels, is a problem.
 */
export function walkLogFolder(logDir: string): FolderWalk {
  if (!existsSync(logDir)) throw new OdaError("not_found", `The log folder ${logDir} does not exist.`);
  const root = realLogRoot(logDir);
  const problems: Problem[] = [];
  const byId = new Map<string, ChatLocation>();
  const refused = new Set<string>();
  for (const group of subfolders(logDir, root, problems)) {
    const groupDir = join(logDir, group);
    const parsed = parseGroupName(group);
    if (!parsed) {
      problems.push({
        kind: "name",
        path: groupDir,
        message: `The folder "${group}" is not a chat group: its name is neither --<working folder>-- with a working folder that decodes, nor _no-cwd.`,
      });
      continue;
    }
    for (const name of subfolders(groupDir, root, problems)) {
      const dir = `${groupDir}${sep}${name}`;
      const id = decodeName(name);
      if (id === null) {
        problems.push({ kind: "name", path: dir, message: `The folder name "${name}" does not decode to a chat id.` });
        continue;
      }
      const seen = byId.get(id);
      if (seen) {
        problems.push({
          kind: "duplicate",
          path: dir,
          message: `Chat "${id}" is stored in two places: ${seen.dir} and ${dir}.`,
        });
        refused.add(id);
        continue;
      }
      byId.set(id, { id, folder: `${group}/${name}`, group, cwd: parsed.cwd, dir, root });
    }
  }
  const chats = [...byId.values()].filter((c) => !refused.has(c.id));
  return { chats, problems };
}

/**
 * Finds one chat by id; refuses an unknown id and one stored in two places.
 * It looks for the id's one folder name in every group rather than walking
 * every chat, so opening a chat costs the number of groups, not of chats.
 * A chat folder that is a link leading outside the log folder (or looping) is
 * refused with the walk's sentence, never opened.
 */
export function locateChat(logDir: string, id: string): ChatLocation {
  const found = locateCopies(logDir, id);
  const [first, second] = found;
  if (first && second)
    throw new OdaError("refused", `Chat "${id}" is stored in two places: ${first.dir} and ${second.dir}.`);
  if (first) return first;
  throw new OdaError("not_found", `No chat with the id "${id}" is in the log folder.`);
}

/** Every folder holding chat `id`, in group order: one normally, two or more for a chat stored in two places. */
export function locateCopies(logDir: string, id: string): ChatLocation[] {
  if (!existsSync(logDir)) throw new OdaError("not_found", `The log folder ${logDir} does not exist.`);
  const root = realLogRoot(logDir);
  const name = encodeName(id);
  const found: ChatLocation[] = [];
  for (const group of subfolders(logDir, root, [])) {
    const parsed = parseGroupName(group);
    if (!parsed) continue;
    const dir = `${join(logDir, group)}${sep}${name}`;
    if (isChatFolder(dir, root)) found.push({ id, folder: `${group}/${name}`, group, cwd: parsed.cwd, dir, root });
  }
  return found;
}

/**
 * The chat's folder, or with `copy` one copy of a chat stored in two places
 * (0-based, in `locateCopies`' order), so each can be read on its own, read-only.
 */
export function locateChatOrCopy(logDir: string, id: string, copy?: number): ChatLocation {
  if (copy === undefined) return locateChat(logDir, id);
  const found = locateCopies(logDir, id)[copy];
  if (!found) throw new OdaError("not_found", `Chat "${id}" has no copy ${copy + 1} in the log folder.`);
  return found;
}

/** True when `dir` is a folder, or a link to one inside the log folder; throws the refusal of any other link. */
function isChatFolder(dir: string, root: string): boolean {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(dir);
  } catch {
    return false;
  }
  if (st.isDirectory()) return true;
  if (!st.isSymbolicLink()) return false;
  const target = followLink(root, dir);
  if ("refused" in target) throw new OdaError(target.outside ? "outside_root" : "unusable", target.refused);
  return target.stat.isDirectory();
}
