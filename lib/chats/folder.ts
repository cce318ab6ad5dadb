import { existsSync, lstatSync } from "node:fs";
import { join, sep } from "node:path";
import { OdaError } from "../errors";
import { isSystemError, isVanished, systemErrorSentence } from "../fs/system-error";
import { noChatSentence } from "./chat-words";
import { duplicateNames, type FolderCopy } from "./folder-duplicates";
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
function subfolders(dir: string, root: string, problems: Problem[], top = false): string[] {
  let listing: ReturnType<typeof listFolders>;
  try {
    listing = listFolders(dir, root);
  } catch (error) {
    if (!isSystemError(error)) throw error;
    // The log folder itself: nothing can be listed, the command says why.
    if (top) throw new OdaError("unusable", systemErrorSentence(error, dir));
    problems.push(
      problemAt("system", dir, `${systemErrorSentence(error, dir)} The chats in this folder are left out.`),
    );
    return [];
  }
  for (const r of listing.refused) problems.push(problemAt(r.link ? "link" : "special", r.path, r.message));
  return listing.folders;
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

/** One group folder of a scan: its chat folders' names, sorted, the refused ones taken out after the walk. */
interface ScannedGroup {
  group: string;
  dir: string;
  cwd: string | null;
  /** Its names joined by "/" (no name holds one), and where each ends: about 16 bytes a chat, not 40. */
  packed: string;
  ends: Uint32Array;
  /** Where its chats' problems go among the walk's (after its listing's refusals). */
  at: number;
  /** Its names that do not decode, each with the number of names kept before it. */
  bad: { before: number; problem: Problem }[];
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
 * every id, and their problems put where the walk met them.
 */
export function scanLogFolder(logDir: string): FolderScan {
  if (!existsSync(logDir)) throw new OdaError("not_found", `The log folder ${logDir} does not exist.`);
  const root = realLogRoot(logDir);
  const walked: Problem[] = [];
  const groups: ScannedGroup[] = [];
  for (const group of subfolders(logDir, root, walked, true)) {
    const groupDir = join(logDir, group);
    const parsed = parseGroupName(group);
    if (!parsed) {
      walked.push(
        problemAt(
          "name",
          groupDir,
          `The folder "${group}" is not a chat group: its name is neither --<working folder>-- with a working folder that decodes, nor _no-cwd.`,
        ),
      );
      continue;
    }
    const names: string[] = [];
    const bad: ScannedGroup["bad"] = [];
    for (const name of subfolders(groupDir, root, walked)) {
      if (decodeName(name) === null) {
        const problem = problemAt(
          "name",
          `${groupDir}${sep}${name}`,
          `The folder name "${name}" does not decode to a chat id.`,
        );
        bad.push({ before: names.length, problem });
      } else names.push(name);
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

/** A group's names packed (see `ScannedGroup`). */
function pack(names: string[]): { packed: string; ends: Uint32Array } {
  const ends = new Uint32Array(names.length);
  let end = -1;
  for (let i = 0; i < names.length; i++) {
    end += (names[i] as string).length + 1;
    ends[i] = end;
  }
  return { packed: names.join("/"), ends };
}

/** A group's `i`th name. */
function nameAt(g: ScannedGroup, i: number): string {
  return g.packed.slice(i ? (g.ends[i - 1] as number) + 1 : 0, g.ends[i]);
}

/**
 * The walk's problems in its order: each group's chats' problems (names that do not decode, and each later copy
 * of a chat stored twice, naming the first) where the walk met them, after its listing's refusals. Also the
 * names of the chats stored twice (one spelling per id: `decodeName`), refused in every group.
 */
function placeProblems(groups: ScannedGroup[], walked: Problem[]): { problems: Problem[]; refused: Set<string> } {
  const refused = new Set<string>();
  const dups: { index: number; problem: Problem }[][] = groups.map(() => []);
  const counts = groups.map((g) => g.ends.length);
  for (const copies of duplicateNames(counts, (g, i) => nameAt(groups[g] as ScannedGroup, i))) {
    const [first, ...later] = copies as [FolderCopy, ...FolderCopy[]];
    const name = nameAt(groups[first.group] as ScannedGroup, first.index);
    const id = decodeName(name) as string;
    const firstDir = `${(groups[first.group] as ScannedGroup).dir}${sep}${name}`;
    refused.add(name);
    for (const c of later) {
      const dir = `${(groups[c.group] as ScannedGroup).dir}${sep}${name}`;
      const problem = problemAt("duplicate", dir, duplicateSentence(id, firstDir, dir), {
        paths: [firstDir, dir],
        chat: id,
      });
      (dups[c.group] as { index: number; problem: Problem }[]).push({ index: c.index, problem });
    }
  }
  const problems: Problem[] = [];
  let done = 0;
  groups.forEach((g, gi) => {
    for (; done < g.at; done++) problems.push(walked[done] as Problem);
    // A name that does not decode comes before the kept name it was listed before; both lists are in list order.
    const d = (dups[gi] as { index: number; problem: Problem }[]).sort((a, b) => a.index - b.index);
    let b = 0;
    for (const { index, problem } of d) {
      for (; b < g.bad.length && (g.bad[b] as ScannedGroup["bad"][number]).before <= index; b++)
        problems.push((g.bad[b] as ScannedGroup["bad"][number]).problem);
      problems.push(problem);
    }
    for (; b < g.bad.length; b++) problems.push((g.bad[b] as ScannedGroup["bad"][number]).problem);
    g.bad = [];
  });
  for (; done < walked.length; done++) problems.push(walked[done] as Problem);
  return { problems, refused };
}

/** Every chat of a log folder at once, and the folder-level problems (see `scanLogFolder`). */
export function walkLogFolder(logDir: string): FolderWalk {
  const scan = scanLogFolder(logDir);
  return { chats: scan.chatsAt(0, scan.total), problems: scan.problems };
}

/** The sentence for a chat stored in two places. */
export function duplicateSentence(id: string, first: string, second: string): string {
  return `Chat "${id}" is stored in two places: ${first} and ${second}.`;
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
