import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { listGenerations, readChatFolder } from "../chats/chat";
import { type ChatLocation, duplicateSentence, locateCopies, walkLogFolder } from "../chats/folder";
import { decodeName, parseGroupName } from "../chats/names";
import { logFolderOf } from "../chats/settings";
import { isSystemError, isVanished, systemErrorPath, systemErrorSentence } from "../fs/system-error";
import { listAllProblems } from "../memory/problems";
import { homeLockRepairable } from "./home-lock";
import { listJournals } from "./journal";
import { type RepairRoots, targetId } from "./targets";

/** A problem that has a repair, with the id `repair apply` takes. */
export interface Repairable {
  id: string;
  kind: "form" | "duplicate" | "archive" | "memory" | "lock";
  /** The chat id, or the memory's path relative to the home. */
  subject: string;
  /** The problem's sentence (for `archive`: the space the older generations take). */
  message: string;
  /** Bytes the repair concerns (archive: the older generations' size). */
  bytes: number;
}

/**
 * Every problem with a repair: logs of the wrong form, chats stored in two
 * places, older log generations (space to reclaim), and memory files with a
 * problem. Chat folders are read by name and size only; no log is decoded.
 */
export async function listRepairable(roots: RepairRoots): Promise<Repairable[]> {
  return (await listRepairableReport(roots)).repairable;
}

/** {@link listRepairable}'s problems, and the sentences of what the system would not give (left out). */
export interface RepairableReport {
  repairable: Repairable[];
  /** One sentence per chat, folder or memory file left out (`lib/fs/system-error.ts`), naming its path. */
  leftOut: string[];
}

/** Every problem with a repair, and what was left out because it could not be read. */
export async function listRepairableReport(roots: RepairRoots): Promise<RepairableReport> {
  const out: Repairable[] = [];
  const leftOut: string[] = [];
  if (roots.logs) {
    const compress = logFolderOf(roots).compress;
    const walk = walkLogFolder(roots.logs);
    const seen = new Set<string>();
    for (const p of walk.problems) {
      if (p.kind === "system") leftOut.push(p.message);
      const id = p.kind === "duplicate" ? p.chat : undefined;
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      out.push(duplicateRepairable(id, p.message));
    }
    for (const chat of walk.chats) chatRepairs(chat, compress, out, leftOut);
  }
  if (roots.home) {
    const memory = await memoryRepairableReport(roots.home);
    out.push(...memory.repairable);
    leftOut.push(...memory.leftOut);
  }
  return { repairable: out, leftOut };
}

/**
 * The repairs on offer for the chats named (a Doctor step's problems), without a walk of every chat: each id
 * is looked for in every group, as `locateCopies` does, so the cost is the number of groups per chat. The
 * same repairs as {@link listRepairable} gives those chats: stored twice, or of the wrong form, or older logs.
 */
export function chatsRepairable(roots: RepairRoots, ids: Iterable<string>): Repairable[] {
  const out: Repairable[] = [];
  if (!roots.logs) return out;
  const compress = logFolderOf(roots).compress;
  for (const id of new Set(ids)) {
    let copies: ReturnType<typeof locateCopies>;
    try {
      copies = locateCopies(roots.logs, id);
    } catch {
      // A link refused, the folder gone: the Doctor says so in its own words; no repair to offer.
      continue;
    }
    const [first, second] = copies;
    if (first && second) out.push(duplicateRepairable(id, duplicateSentence(id, first.dir, second.dir)));
    else if (first) chatRepairs(first, compress, out, []);
  }
  return out;
}

/** The chats a doctor problem's path (relative to the log folder: `<group>/<chat folder>/…`) is about. */
export function chatsOfProblems(paths: Iterable<string>): string[] {
  const ids = new Set<string>();
  for (const path of paths) {
    const [group, folder] = path.split("/");
    if (group === undefined || folder === undefined || !parseGroupName(group)) continue;
    const id = decodeName(folder);
    if (id !== null) ids.add(id);
  }
  return [...ids];
}

function duplicateRepairable(id: string, message: string): Repairable {
  return { id: targetId({ kind: "duplicate", chat: id }), kind: "duplicate", subject: id, message, bytes: 0 };
}

/** One chat's repairs (wrong form, older generations) into `out`; an unreadable folder's sentence into `leftOut`. */
function chatRepairs(chat: ChatLocation, compress: boolean, out: Repairable[], leftOut: string[]): void {
  let gens: ReturnType<typeof listGenerations>;
  try {
    gens = listGenerations(chat.dir, readChatFolder(chat), compress);
  } catch (error) {
    // Vanished meanwhile: nothing to repair. Unreadable: left out, and said so.
    if (isSystemError(error) && !isVanished(error))
      leftOut.push(systemErrorSentence(error, systemErrorPath(error, chat.dir)));
    return;
  }
  const wrong = gens.filter((g) => g.refused);
  for (const g of wrong.slice(0, 1)) {
    out.push({
      id: targetId({ kind: "form", chat: chat.id }),
      kind: "form",
      subject: chat.id,
      message: g.refused as string,
      bytes: wrong.reduce((n, w) => n + w.bytes, 0),
    });
  }
  const newest = Math.max(0, ...gens.map((g) => g.format));
  const older = gens.filter((g) => g.format < newest);
  if (older.length) {
    const bytes = older.reduce((n, g) => n + g.bytes, 0);
    out.push({
      id: targetId({ kind: "archive", chat: chat.id }),
      kind: "archive",
      subject: chat.id,
      message: `Chat "${chat.id}" keeps ${older.map((g) => g.name).join(", ")} (${bytes} bytes) beside its newest log.`,
      bytes,
    });
  }
}

/** The memory's repairs (the home's stale lock, each memory file with a problem): no chat is looked at. */
export async function memoryRepairableReport(home: string): Promise<RepairableReport> {
  const out: Repairable[] = [];
  const leftOut: string[] = [];
  const lock = await homeLockRepairable(home);
  if (lock) out.push({ ...lock, kind: "lock", subject: "memory-history/.lock", bytes: 0 });
  for (const p of await listAllProblems(home)) {
    if (p.unreadable) leftOut.push(`${join(home, p.path)}: ${p.message}`);
    if (p.id === null) continue;
    const target = { kind: "memory" as const, workspace: p.workspace, memory: p.id };
    out.push({ id: targetId(target), kind: "memory", subject: p.path, message: p.message, bytes: 0 });
  }
  return { repairable: out, leftOut };
}

/** Disk space that older generations take in the log folder, and that repairs keep in the admin state. */
export interface SpaceReport {
  olderGenerations: number;
  keptByRepairs: number;
  repairs: { id: string; bytes: number }[];
}

function folderBytes(dir: string): number {
  let total = 0;
  try {
    for (const name of readdirSync(dir)) total += statSync(join(dir, name)).size;
  } catch {
    // no kept files
  }
  return total;
}

/** Sums the space older generations and set-aside files take. */
export async function spaceReport(roots: RepairRoots): Promise<SpaceReport> {
  const archive = roots.logs
    ? (await listRepairable({ ...roots, home: roots.home })).filter((r) => r.kind === "archive")
    : [];
  const repairs = listJournals(roots.state).map((j) => ({
    id: j.id,
    bytes: folderBytes(join(roots.state, "repairs", j.id, "files")),
  }));
  return {
    olderGenerations: archive.reduce((n, r) => n + r.bytes, 0),
    keptByRepairs: repairs.reduce((n, r) => n + r.bytes, 0),
    repairs,
  };
}
