import { type BigIntStats, type Dirent, promises as fsp, statSync } from "node:fs";
import { join } from "node:path";
import { OdaError } from "../errors";
import { isInside, isTempFileName, realRootOf, removeLeftoverTemps, resolveInsideReal } from "../fs";
import { isSystemError, systemErrorReason } from "../fs/system-error";
import { StatCache, settleClock } from "./file-cache";
import type { Limits } from "./limits";
import { MESSAGES } from "./messages";
import { isMemoryId, isWorkspaceKey, type WorkspaceKey } from "./names";
import type { MemoryProblem } from "./parse";
import { relativeToHome, setSegments } from "./paths";
import { cachedMemoryParse, mapPool, type ParsedFile, readMemoryFile } from "./read-file";

/** The files of one set folder as read (or as cached); `reads` in no particular order. */
export interface SetFiles {
  /** Relative to the home. */
  segments: string[];
  reads: { name: string; read: ParsedFile }[];
  ignored: string[];
  /** True when a memory entry is a symbolic link (its file may live outside the set folder). */
  links: boolean;
}

/** A set folder's entries as one readdir gave them. */
interface FolderEntries {
  ids: { name: string; link: boolean }[];
  ignored: string[];
  temps: boolean;
}

/**
 * Set folder listings, by the folder's stat: a folder's mtime and ctime move
 * whenever an entry is added, removed or renamed, so an unchanged (and
 * settled, see `file-cache.ts`) folder stat stands for an unchanged listing.
 * Each file's own stat is still checked on every read.
 */
const listings = new StatCache<FolderEntries>(5_000);

async function folderEntries(folder: string, segments: string[]): Promise<FolderEntries | null> {
  const startedAt = settleClock.now();
  let st: BigIntStats | undefined;
  try {
    st = statSync(folder, { bigint: true, throwIfNoEntry: false });
  } catch {
    st = undefined; // readdir below reports why
  }
  const hit = st?.isDirectory() ? listings.get(folder, st) : undefined;
  if (hit) return hit;
  let dirents: Dirent[];
  try {
    dirents = await fsp.readdir(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    const reason = isSystemError(error) ? systemErrorReason(error, folder) : `${code}.`;
    throw new OdaError("io", `The memory folder ${relativeToHome(...segments)} cannot be read: ${reason}`);
  }
  const entries: FolderEntries = { ids: [], ignored: [], temps: false };
  for (const e of dirents) {
    if (isMemoryId(e.name)) entries.ids.push({ name: e.name, link: e.isSymbolicLink() });
    else if (isTempFileName(e.name)) entries.temps = true;
    else entries.ignored.push(e.name);
  }
  if (st?.isDirectory()) listings.set(folder, st, startedAt, entries);
  return entries;
}

/**
 * Reads a set folder's memory files: the folder is validated once (against
 * `realHome` when the caller already resolved it in this operation; not at
 * all when `folderInside` says the caller proved it), its listing comes from
 * a cache checked by the folder's stat, cached parses are taken after one
 * `lstat` each, and only the misses (new or changed files; symlinks, whose
 * target is checked every time) are opened and parsed, in parallel with a
 * bounded pool. Leftover temp files are skipped (those older than a minute
 * removed). A missing folder is an empty set.
 */
export async function readSetFiles(
  home: string,
  workspace: WorkspaceKey,
  limits: Limits,
  realHome?: string | Promise<string>,
  folderInside = false,
): Promise<SetFiles> {
  const segments = setSegments(workspace);
  const real = realHome ?? realRootOf(home);
  const folder = folderInside ? join(home, ...segments) : await resolveInsideReal(home, real, ...segments);
  const result: SetFiles = { segments, reads: [], ignored: [], links: false };
  const entries = await folderEntries(folder, segments);
  if (!entries) return result;
  result.ignored = [...entries.ignored];
  result.links = entries.ids.some((e) => e.link);
  const misses: { name: string; link: boolean }[] = [];
  let stats = 0;
  for (const e of entries.ids) {
    if (++stats % 1024 === 0) await new Promise(setImmediate); // a huge set does not hold the event loop
    const cached = e.link ? undefined : cachedMemoryParse(join(folder, e.name), limits);
    if (cached) result.reads.push({ name: e.name, read: cached });
    else misses.push(e);
  }
  const missed = await mapPool(misses, 32, async ({ name, link }) => {
    const path = join(folder, name);
    if (link) {
      const target = await fsp.realpath(path).catch(() => null);
      if (target === null || !isInside(await real, target)) {
        const parse: MemoryProblem = { ok: false, message: MESSAGES.cannotRead("it links outside the Oda home.") };
        return { name, read: { parse, size: 0, mtimeMs: 0 } };
      }
      const cached = cachedMemoryParse(path, limits, true);
      if (cached) return { name, read: cached };
    }
    return { name, read: await readMemoryFile(path, limits, !link) };
  });
  for (const m of missed) if (m.read) result.reads.push({ name: m.name, read: m.read }); // null: removed meanwhile
  if (entries.temps) void removeLeftoverTemps(folder);
  return result;
}

/**
 * The workspace set folders, sorted by key. `inside` is true for a plain
 * folder: the parent was proven inside the home and the entry is no symlink,
 * so it needs no realpath of its own; a symlinked one must be resolved.
 */
export async function workspaceFolders(
  home: string,
  realHome?: string | Promise<string>,
): Promise<{ key: NonNullable<WorkspaceKey>; inside: boolean }[]> {
  const folder = await resolveInsideReal(home, realHome ?? realRootOf(home), "memory", "workspaces");
  try {
    const entries = await fsp.readdir(folder, { withFileTypes: true });
    return (
      entries
        .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && isWorkspaceKey(e.name))
        // checked by the filter: a folder whose name is not a workspace key is no set
        .map((e) => ({ key: e.name as NonNullable<WorkspaceKey>, inside: e.isDirectory() }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    );
  } catch {
    return [];
  }
}

/** The workspace keys that have a set folder, sorted. Folders with names that are not keys are skipped. */
export async function listWorkspaces(home: string): Promise<NonNullable<WorkspaceKey>[]> {
  return (await workspaceFolders(home)).map((w) => w.key);
}
