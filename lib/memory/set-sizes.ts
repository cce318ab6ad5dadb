import { type FSWatcher, statSync, watch } from "node:fs";
import { join } from "node:path";
import type { Limits } from "./limits";
import { readSetFiles, workspaceFolders } from "./listing-cache";
import type { WorkspaceKey } from "./names";
import { setSegments } from "./paths";
import { countsOf, mapPool } from "./read-file";

/**
 * What each memory set contributes to a chat's payload, kept between calls.
 *
 * A global save that grows the global part must check every workspace's chat
 * against the token limit: 200 workspaces × 50 memories is 10,000 files, one
 * stat each even with the parse cache. A workspace's size changes only when a
 * file of its folder is added, removed, renamed or written, and each of those
 * is reported by the kernel on the folder (`fs.watch`, inotify on Linux) at the
 * moment it happens, whatever the file's timestamps say (a same-size rewrite in
 * the same mtime second included). So a size is reused while a watch of its
 * folder, started before the size was computed, has reported nothing since.
 * That also proves the folder is still the same: a folder replaced or renamed
 * in its place has moved or deleted the watched one, which its watch reports,
 * so a 200-workspace check costs no stat at all; a size is computed again
 * only after a stat of the folder (device, inode, mtime, ctime). Every check
 * first lets the event loop deliver what the kernel has queued, so an edit
 * finished before the check began is always seen. Where no watch can be kept
 * (a symlinked folder or memory, no inotify, a watch error), the size is
 * computed from the files every time, as it was before.
 */

/** What one set contributes to a payload: sums of its sendable memories' blocks (`## <title>\n<text>`). */
export interface SetSize {
  /** Sum of the blocks' code points. */
  blocks: number;
  count: number;
  /** Each sendable memory's block, by id. */
  byId: Map<string, number>;
}

/** A set's size computed from its files (through the parse cache: one stat per unchanged file). */
export async function setSize(
  home: string,
  workspace: WorkspaceKey,
  limits: Limits,
  realHome: string | Promise<string>,
  folderInside = false,
): Promise<SetSize & { links: boolean }> {
  const { reads, links } = await readSetFiles(home, workspace, limits, realHome, folderInside);
  const size: SetSize & { links: boolean } = { blocks: 0, count: 0, byId: new Map(), links };
  for (const { name, read } of reads) {
    if (!read.parse.ok || !read.parse.fields.enabled) continue;
    const block = countsOf(read.parse).blockChars;
    size.blocks += block;
    size.count++;
    size.byId.set(name, block);
  }
  return size;
}

interface FolderWatch {
  watcher: FSWatcher;
  /** The folder's inode when the watch began: a watch follows its inode, not the path. */
  ino: bigint;
  dev: bigint;
  /** Bumped by every event; a size is valid only for the count it was computed under. */
  events: number;
  broken: boolean;
}

interface KnownSize {
  size: SetSize;
  events: number;
  folderKey: string;
  limitsKey: string;
}

/**
 * How workspace sizes were found since the process started (bench:memory
 * prints them): reused from a watched folder, recomputed after a change, or
 * recomputed because no watch could be kept. Node keeps one inotify instance
 * per process for all its watches; when the user's instances
 * (`fs.inotify.max_user_instances`, 128 by default) are all held by other
 * processes, the first watch fails and every size is recomputed each time.
 */
export const setSizeStats = { reused: 0, recomputed: 0, unwatched: 0 };

const watches = new Map<string, FolderWatch>();
const known = new Map<string, KnownSize>();
/** Bounds the watches one process keeps (inotify watches are a per-user resource). */
const MAX_WATCHES = 4096;

function folderStat(path: string) {
  try {
    return statSync(path, { bigint: true, throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** The live watch of `path` (a folder with inode `ino`), started now if there is none; `null` when none can be kept. */
function watchOf(path: string, dev: bigint, ino: bigint): FolderWatch | null {
  const current = watches.get(path);
  if (current && !current.broken && current.ino === ino && current.dev === dev) return current;
  if (current) dropWatch(path, current);
  if (watches.size >= MAX_WATCHES) return null;
  try {
    const entry = { ino, dev, events: 0, broken: false } as FolderWatch;
    // persistent: false: a watch never keeps a CLI process alive.
    entry.watcher = watch(path, { persistent: false }, () => {
      entry.events++;
    });
    entry.watcher.on("error", () => {
      entry.broken = true;
      dropWatch(path, entry);
    });
    watches.set(path, entry);
    return entry;
  } catch {
    return null;
  }
}

function dropWatch(path: string, entry: FolderWatch): void {
  entry.broken = true;
  entry.watcher.close();
  if (watches.get(path) === entry) watches.delete(path);
  known.delete(path);
}

/**
 * Lets the event loop run one full turn, so every folder event the kernel
 * queued before this call has reached its watch (`fs.watch` callbacks run in
 * the poll phase; two immediates guarantee one poll phase in between).
 */
async function deliverQueuedEvents(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

/** The size kept for `folder` while its watch is live and has reported nothing since it was computed. */
function reusable(folder: string, limitsKey: string): SetSize | null {
  const watch = watches.get(folder);
  const hit = known.get(folder);
  if (!watch || watch.broken || !hit || hit.events !== watch.events || hit.limitsKey !== limitsKey) return null;
  return hit.size;
}

/** One workspace's size: reused while its folder's watch reported nothing, else computed (and kept). */
async function workspaceSize(
  home: string,
  key: NonNullable<WorkspaceKey>,
  inside: boolean,
  limits: Limits,
  limitsKey: string,
  realHome: string | Promise<string>,
): Promise<SetSize> {
  const folder = join(home, ...setSegments(key));
  // A size kept under a live watch that has reported nothing since needs no stat either: replacing or renaming
  // the folder moves or deletes the watched one, which its watch reports (inotify's IN_MOVE_SELF, IN_DELETE_SELF).
  const kept = inside ? reusable(folder, limitsKey) : null;
  if (kept) {
    setSizeStats.reused++;
    return kept;
  }
  const st = inside ? folderStat(folder) : null;
  const watch = st?.isDirectory() ? watchOf(folder, st.dev, st.ino) : null;
  if (!st || !watch) {
    setSizeStats.unwatched++;
    return setSize(home, key, limits, realHome, inside);
  }
  const folderKey = `${st.mtimeNs}:${st.ctimeNs}`;
  const hit = known.get(folder);
  if (hit && hit.events === watch.events && hit.folderKey === folderKey && hit.limitsKey === limitsKey) {
    setSizeStats.reused++;
    return hit.size;
  }
  setSizeStats.recomputed++;
  // The count is taken before the files are read: an edit made while they are read bumps it past this one.
  const events = watch.events;
  const size = await setSize(home, key, limits, realHome, inside);
  if (size.links)
    known.delete(folder); // a linked memory's file is outside this folder's watch
  else known.set(folder, { size, events, folderKey, limitsKey });
  return size;
}

/**
 * Every workspace's set size, in key order: each reused from the last call
 * while nothing in its folder changed since (see above), else read from its
 * files. The sizes served are always those the files give now.
 */
export async function workspaceSizes(
  home: string,
  limits: Limits,
  realHome: string | Promise<string>,
): Promise<{ key: string; size: SetSize }[]> {
  await deliverQueuedEvents();
  const folders = await workspaceFolders(home, realHome);
  const limitsKey = JSON.stringify(limits);
  return mapPool(folders, 4, async ({ key, inside }) => ({
    key,
    size: await workspaceSize(home, key, inside, limits, limitsKey, realHome),
  }));
}

/** Stops every watch and forgets every size (tests; a process that no longer needs them). */
export function clearSetSizes(): void {
  for (const [path, entry] of [...watches]) dropWatch(path, entry);
  known.clear();
}
