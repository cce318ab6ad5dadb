import { existsSync, lstatSync } from "node:fs";
import { join, sep } from "node:path";
import { OdaError } from "../errors";
import { isSystemError, isVanished, systemErrorSentence } from "../fs/system-error";
import { noChatSentence } from "./chat-words";
import { duplicateSentence, nameAt, pack, placeProblems, type ScannedGroup } from "./folder-duplicates";
import { followLink, listFolders, realLogRoot } from "./links";
import { decodeName, encodeName, parseGroupName } from "./names";
import { type Problem, problemAt } from "./problem";

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

export { duplicateSentence } from "./folder-duplicates";
export type { Problem } from "./problem";

/** The chats of a log folder and the folder-level problems, found by reading folder names only. */
export interface FolderWalk {
  chats: ChatLocation[];
  problems: Problem[];
}

/**
 * The sub-folders of `dir`; its other entries become problems, and so does a
 * group folder the system would not list (permission, removed meanwhile, …):
 * its chats are left out, the others are read.
 */
export function subfolders(dir: string, root: string, problems: Problem[], top = false): string[] {
  let listing: ReturnType<typeof listFolders>;
  try {
    listing = listFolders(dir, root);
  } catch (error) {
    if (!isSystemError(error)) throw error;
    // The log folder itself: nothing can be listed, the command says why.
    if (top) throw new OdaError("unusable", systemErrorSentence(error, dir));
    problems.push(unlistedProblem(dir, error));
    return [];
  }
  return refusedInto(listing, problems);
}

/** A listing's sub-folders; its refused entries become problems. */
export function refusedInto(listing: ReturnType<typeof listFolders>, problems: Problem[]): string[] {
  for (const r of listing.refused) problems.push(problemAt(r.link ? "link" : "special", r.path, r.message));
  return listing.folders;
}

/** A group folder the system would not list: its chats are left out. */
export function unlistedProblem(dir: string, error: NodeJS.ErrnoException): Problem {
  return problemAt("system", dir, `${systemErrorSentence(error, dir)} The chats in this folder are left out.`);
}

/** A folder of the log folder that is not a chat group. */
export function notGroupProblem(groupDir: string, group: string): Problem {
  return problemAt(
    "name",
    groupDir,
    `The folder "${group}" is not a chat group: its name is neither --<working folder>-- with a working folder that decodes, nor _no-cwd.`,
  );
}

/** A chat folder whose name does not decode. */
export function badNameProblem(groupDir: string, name: string): Problem {
  return problemAt("name", `${groupDir}${sep}${name}`, `The folder name "${name}" does not decode to a chat id.`);
}

/** A log folder's chats found by their names, made into locations only when asked for (`scanLogFolder`). */
export interface FolderScan {
  /** How many chats (those stored twice left out). */
  total: number;
  /** Folder-level problems, in the walk's order. */
  problems: Problem[];
  /** Chats `from` to `to` (excluded), in the walk's order. */
  chatsAt(from: number, to: number): ChatLocation[];
}

/**
 * Walks a log folder: groups `--<working folder>--` and `_no-cwd`, then chat
 * folders, decoding both names. A name that does not decode is a problem, not
 * a chat; a chat id found in two places is refused, naming both paths. Links
 * that stay inside the log folder are followed; one that leads outside, loops
 * or leads nowhere, and anything but a folder at these two levels, is a problem.
 * Only the names are kept: 100,000 chats as location objects would hold the heap
 * for a whole listing; `chatsAt` makes a batch's. Chats stored twice are found
 * after the walk from the sorted names (`duplicateNames`), not with a map of
 * every id, and their problems put where the walk met them. `look` is called
 * before each group's folder is read: it may throw to stop the walk (the
 * server's folder check, once nobody waits for it).
 */
export function scanLogFolder(logDir: string, look: () => void = () => {}): FolderScan {
  if (!existsSync(logDir)) throw new OdaError("not_found", `The log folder ${logDir} does not exist.`);
  const root = realLogRoot(logDir);
  const walked: Problem[] = [];
  const groups: ScannedGroup[] = [];
  for (const group of subfolders(logDir, root, walked, true)) {
    look();
    const groupDir = join(logDir, group);
    const parsed = parseGroupName(group);
    if (!parsed) {
      walked.push(notGroupProblem(groupDir, group));
      continue;
    }
    const names: string[] = [];
    const bad: ScannedGroup["bad"] = [];
    for (const name of subfolders(groupDir, root, walked)) {
      if (decodeName(name) === null) bad.push({ before: names.length, problem: badNameProblem(groupDir, name) });
      else names.push(name);
    }
    groups.push({ group, dir: groupDir, cwd: parsed.cwd, ...pack(names), at: walked.length, bad });
  }
  const { problems, refused } = placeProblems(groups, walked);
  const starts: number[] = [];
  let total = 0;
  for (const g of groups) {
    if (refused.size) {
      const names = Array.from({ length: g.ends.length }, (_, i) => nameAt(g, i)).filter((n) => !refused.has(n));
      if (names.length < g.ends.length) Object.assign(g, pack(names));
    }
    starts.push(total);
    total += g.ends.length;
  }
  const chatsAt = (from: number, to: number): ChatLocation[] => {
    const out: ChatLocation[] = [];
    let gi = 0;
    while (gi + 1 < groups.length && (starts[gi + 1] as number) <= from) gi++;
    for (let i = from; i < Math.min(to, total); i++) {
      while (i - (starts[gi] as number) >= (groups[gi] as ScannedGroup).ends.length) gi++;
      const g = groups[gi] as ScannedGroup;
      const name = nameAt(g, i - (starts[gi] as number));
      const id = decodeName(name) as string;
      out.push({ id, folder: `${g.group}/${name}`, group: g.group, cwd: g.cwd, dir: `${g.dir}${sep}${name}`, root });
    }
    return out;
  };
  return { total, problems, chatsAt };
}

/** Every chat of a log folder at once, and the folder-level problems (see `scanLogFolder`). */
export function walkLogFolder(logDir: string): FolderWalk {
  const scan = scanLogFolder(logDir);
  return { chats: scan.chatsAt(0, scan.total), problems: scan.problems };
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
    throw new OdaError("refused", duplicateSentence(id, first.dir, second.dir), {
      data: { problem: "duplicate", paths: found.map((c) => c.dir) },
    });
  if (first) return first;
  // A group the system would not let us look into may hold it: say so rather than "no such chat".
  const hidden = unreadableGroups(logDir, id)[0];
  if (hidden)
    throw new OdaError("io", `${hidden.message} Chat "${id}" may be in it.`, { data: { paths: [hidden.path] } });
  throw new OdaError("not_found", noChatSentence(id));
}

/** The groups of the log folder in which a folder for chat `id` cannot be looked for (see `locateChat`). */
function unreadableGroups(logDir: string, id: string): { path: string; message: string }[] {
  const root = realLogRoot(logDir);
  const name = encodeName(id);
  const out: { path: string; message: string }[] = [];
  for (const group of subfolders(logDir, root, [], true)) {
    if (!parseGroupName(group)) continue;
    try {
      lstatSync(`${join(logDir, group)}${sep}${name}`);
    } catch (error) {
      if (isSystemError(error) && !isVanished(error))
        out.push({ path: join(logDir, group), message: systemErrorSentence(error, join(logDir, group)) });
    }
  }
  return out;
}

/** Every folder holding chat `id`, in group order: one normally, two or more for a chat stored in two places. */
export function locateCopies(logDir: string, id: string): ChatLocation[] {
  if (!existsSync(logDir)) throw new OdaError("not_found", `The log folder ${logDir} does not exist.`);
  const root = realLogRoot(logDir);
  const name = encodeName(id);
  const found: ChatLocation[] = [];
  for (const group of subfolders(logDir, root, [], true)) {
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
