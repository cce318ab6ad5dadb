import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { Generation } from "../chats/chat";
import { walkLogFolder } from "../chats/folder";
import { listAllChats } from "../chats/list";
import { CACHE_FILE, LOCK_FILE, parseLogName } from "../chats/names";
import { logFolderOf } from "../chats/settings";
import { OdaError } from "../errors";
import { isSystemError, isVanished, systemErrorSentence } from "../fs/system-error";
import type { RedactKind } from "./detectors";

/** What a person chose to put in a bundle. */
export interface BundleScope {
  /** Chat ids, or "all"; `null` with no `since` means no chats. */
  chats: string[] | "all" | null;
  /** Only chats active at or after this ISO date-time. */
  since: string | null;
  /** The memory sets with their history and deleted marks. */
  memory: boolean;
  /** Redaction kinds that are on (`keyword` is added when keywords are given). */
  kinds: RedactKind[];
  keywords: string[];
  /** Replace every message and memory text, keeping the structure. */
  dropText: boolean;
  /** The admin state's notes on the chosen chats go in too (`notes/`). */
  notes?: boolean;
}

/** How a file is treated when it is staged. */
export type FileRole = "settings" | "memory" | "history" | "log" | "checkpoint" | "lock";

/** One file that goes in, before redaction: `path` is its place in the bundle as stored on disk. */
export interface PlannedFile {
  role: FileRole;
  source: string;
  path: string;
  size: number;
  /** For logs: zstd or plain; for checkpoints: the chat's newest log name. */
  compressed?: boolean;
  newestLog?: string;
}

/**
 * A file or folder chosen for the bundle that is not in it: removed while the
 * bundle was collected (`gone`), or one the system would not give
 * (`unreadable`). The rest of the bundle is made; the manifest and the report
 * list these.
 */
export interface LeftOut {
  /** Its place in the bundle (`logs/<group>/<chat>`, `home/memory/...`), before redaction. */
  path: string;
  reason: "gone" | "unreadable";
  /** The sentence: the path, what the system answered and what to do. */
  message: string;
}

/** A file or folder left out (see {@link LeftOut}) for the system error `error` on `source`. */
export function leftOutOf(path: string, source: string, error: NodeJS.ErrnoException): LeftOut {
  const gone = isVanished(error);
  const message = gone
    ? `${source} was removed while the bundle was collected; it is left out of the bundle.`
    : `${systemErrorSentence(error, source)} It is left out of the bundle.`;
  return { path, reason: gone ? "gone" : "unreadable", message };
}

/** Everything a bundle of this scope holds, and the host names lock files name. */
export interface Plan {
  /** Every file, or (planned with `keepChatFiles` false) the home's only: see {@link chatFilesOf}. */
  files: PlannedFile[];
  /** The bytes of every planned file, the chats' too. */
  bytes: number;
  /** True when `files` holds the chats' files too (`keepChatFiles`). */
  keptChatFiles: boolean;
  chats: { id: string; folder: string }[];
  lockHosts: string[];
  compress: boolean;
  /** Chosen files and folders that are not in the bundle (see {@link LeftOut}). */
  leftOut: LeftOut[];
}

/** A regular file's size; `null` for anything else, and for one the system would not show (then left out). */
function regularSize(path: string, bundlePath: string, leftOut: LeftOut[]): number | null {
  try {
    const st = lstatSync(path, { throwIfNoEntry: false });
    return st?.isFile() ? st.size : null;
  } catch (error) {
    if (!isSystemError(error)) throw error;
    leftOut.push(leftOutOf(bundlePath, path, error));
    return null;
  }
}

/** The files under `root/rel`; a folder that cannot be listed is left out (a missing top folder is no set). */
function walk(root: string, rel: string, out: { rel: string; size: number }[], leftOut: LeftOut[], top = true): void {
  let names: string[];
  try {
    names = readdirSync(join(root, rel)).sort();
  } catch (error) {
    if (top && (error as NodeJS.ErrnoException).code === "ENOENT") return;
    if (!isSystemError(error)) throw error;
    leftOut.push(leftOutOf(`home/${rel}`, join(root, rel), error));
    return;
  }
  for (const name of names) {
    const r = rel ? `${rel}/${name}` : name;
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(join(root, r), { throwIfNoEntry: false });
    } catch (error) {
      if (!isSystemError(error)) throw error;
      leftOut.push(leftOutOf(`home/${r}`, join(root, r), error));
      continue;
    }
    if (st?.isDirectory()) walk(root, r, out, leftOut, false);
    else if (st?.isFile()) out.push({ rel: r, size: st.size });
  }
}

const MEMORY_FILE = /^memory\/(?:global|workspaces\/[A-Za-z0-9][A-Za-z0-9._-]*)\/[0-9a-f]{8}$/;
// Leftovers of an interrupted save and the home-wide change lock are no part of the history.
const HISTORY_SKIP = /(^memory-history\/\.lock$)|\.tmp-|~$/;

function planMemory(home: string, files: PlannedFile[], leftOut: LeftOut[]): void {
  const found: { rel: string; size: number }[] = [];
  walk(home, "memory", found, leftOut);
  for (const f of found)
    if (MEMORY_FILE.test(f.rel))
      files.push({ role: "memory", source: join(home, f.rel), path: `home/${f.rel}`, size: f.size });
  const history: { rel: string; size: number }[] = [];
  walk(home, "memory-history", history, leftOut);
  for (const f of history)
    if (!HISTORY_SKIP.test(f.rel))
      files.push({ role: "history", source: join(home, f.rel), path: `home/${f.rel}`, size: f.size });
}

/**
 * Lists what a bundle of `scope` holds, reading no log. With `keepChatFiles` false (a bundle and its preview)
 * the chats' files are looked at (their sizes summed, their lock files' hosts learned) but not kept: staging
 * lists each chat's again as it comes to it (`plannedFiles`), so 100,000 chats' 200,000 planned files are
 * never held at once.
 */
export async function planBundle(
  roots: { home: string | null; logs: string | null },
  scope: BundleScope,
  options: { keepChatFiles?: boolean } = {},
): Promise<Plan> {
  const keep = options.keepChatFiles ?? true;
  const files: PlannedFile[] = [];
  const leftOut: LeftOut[] = [];
  const compress = logFolderOf(roots).compress;
  if (roots.home) {
    const size = regularSize(join(roots.home, "settings.json"), "home/settings.json", leftOut);
    if (size !== null)
      files.push({ role: "settings", source: join(roots.home, "settings.json"), path: "home/settings.json", size });
    if (scope.memory) planMemory(roots.home, files, leftOut);
  }
  const chats: Plan["chats"] = [];
  const lockHosts = new Set<string>();
  let chatBytes = 0;
  const sized = (f: PlannedFile) => {
    chatBytes += f.size;
  };
  if (roots.logs && (scope.chats !== null || scope.since !== null)) {
    // Only --since needs each chat's last activity; otherwise the folder names say which chats there are, and
    // the logs are read once, by the doctor and the staging (listing 10,000 chats cost seconds and ~70 MB).
    const found = scope.since === null ? walkLogFolder(roots.logs) : await listAllChats(roots.logs, { compress });
    const all: { id: string; folder: string; lastActivity?: string | null; created?: string | null }[] = found.chats;
    // A group folder that could not be listed: its chats are not in the bundle.
    for (const p of found.problems)
      if (p.kind === "system")
        leftOut.push({
          path: `logs/${relative(roots.logs, p.path).split(sep).join("/")}`,
          reason: existsSync(p.path) ? "unreadable" : "gone",
          message: `${p.message} It is left out of the bundle.`,
        });
    // A chat stored in two places is no chat of the listing (both copies are refused), but it is the problem a
    // support person must see: every copy goes in, each a folder of its own, as it is stored.
    const copies = new Map<string, Set<string>>();
    for (const p of found.problems)
      if (p.kind === "duplicate" && p.chat !== undefined) {
        const dirs = copies.get(p.chat) ?? new Set<string>();
        for (const dir of p.paths) dirs.add(dir);
        copies.set(p.chat, dirs);
      }
    const wanted = Array.isArray(scope.chats) ? new Set(scope.chats) : null;
    for (const id of wanted ?? []) {
      if (!all.some((c) => c.id === id) && !copies.has(id))
        throw new OdaError("not_found", `No chat with the id "${id}" is in the log folder.`);
    }
    const since = scope.since === null ? null : Date.parse(scope.since);
    if (since !== null && Number.isNaN(since))
      throw new OdaError(
        "bad_input",
        `"${scope.since}" is not a date; give --since as YYYY-MM-DD or an ISO date-time.`,
      );
    for (const chat of all) {
      if (wanted && !wanted.has(chat.id)) continue;
      if (since !== null && Date.parse(chat.lastActivity ?? chat.created ?? "") < since) continue;
      if (planChat(roots.logs, chat.folder, compress, keep ? files : null, lockHosts, leftOut, sized))
        chats.push({ id: chat.id, folder: chat.folder });
    }
    // Its last activity is not known (neither copy is read as the chat): `--since` keeps it, as the report names it.
    for (const [id, dirs] of copies) {
      if (wanted && !wanted.has(id)) continue;
      for (const dir of [...dirs].sort()) {
        const folder = relative(roots.logs, dir).split(sep).join("/");
        if (planChat(roots.logs, folder, compress, keep ? files : null, lockHosts, leftOut, sized))
          chats.push({ id, folder });
      }
    }
  }
  const homeBytes = files.reduce((n, f) => n + f.size, 0);
  const bytes = keep ? homeBytes : homeBytes + chatBytes;
  return { files, bytes, keptChatFiles: keep, chats, lockHosts: [...lockHosts], compress, leftOut };
}

/**
 * The files a bundle stages, in its order: the home's, then each planned chat's, listed as staging comes to
 * it (a plan keeps none of a chat's: `chatFilesOf`).
 */
export function* plannedFiles(plan: Plan, logs: string | null): Generator<PlannedFile> {
  // A plan made with `keepChatFiles` holds its chats' files already.
  if (plan.keptChatFiles) {
    yield* plan.files;
    return;
  }
  yield* plan.files;
  if (logs) for (const chat of plan.chats) yield* chatFilesOf(logs, chat.folder, plan.compress, plan.leftOut);
}

/**
 * The planned chats by folder (`Map` keys are the plan's own strings): which chat a log lies in, and the
 * planned file of a chat's current log as the doctor reads it, which a plan no longer keeps.
 */
export class PlannedChats {
  private readonly index = new Map<string, number>();

  constructor(
    private readonly logs: string,
    chats: Plan["chats"],
  ) {
    for (const [i, c] of chats.entries()) this.index.set(c.folder, i);
  }

  /** How many chats are planned. */
  get size(): number {
    return this.index.size;
  }

  /** The planned chat a log lies in (its index in `Plan.chats`), or -1. */
  chatOf(source: string): number {
    return this.index.get(relative(this.logs, dirname(source))) ?? -1;
  }

  /**
   * The planned file of a chat's current log as `planChat` plans it (a regular file, its size now), or
   * undefined when it is not planned (its chat is not in the bundle, or it is a link).
   */
  plannedLog(current: Generation): PlannedFile | undefined {
    if (this.chatOf(current.path) < 0) return undefined;
    const folder = relative(this.logs, dirname(current.path)).split(sep).join("/");
    const size = regularSize(current.path, `logs/${folder}/${current.name}`, []);
    if (size === null) return undefined;
    return {
      role: "log",
      source: current.path,
      path: `logs/${folder}/${current.name}`,
      size,
      compressed: current.compressed,
      newestLog: current.name,
    };
  }
}

/**
 * One planned chat's files listed again (a plan keeps none): as `planBundle` lists them, logs first; a folder
 * that can no longer be listed is left out.
 */
export function chatFilesOf(logs: string, folder: string, compress: boolean, leftOut: LeftOut[]): PlannedFile[] {
  const files: PlannedFile[] = [];
  planChat(logs, folder, compress, files, new Set(), leftOut);
  return files;
}

/**
 * Plans one chat folder's files into `files` (`null`: looked at, not kept), each given to `onFile`; `false`
 * when the folder could not be listed (it is left out).
 */
function planChat(
  logs: string,
  folder: string,
  compress: boolean,
  files: PlannedFile[] | null,
  hosts: Set<string>,
  leftOut: LeftOut[],
  onFile?: (f: PlannedFile) => void,
): boolean {
  const dir = join(logs, folder);
  const rel = folder.split(/[\\/]/).join("/");
  let listed: string[];
  try {
    listed = readdirSync(dir);
  } catch (error) {
    if (!isSystemError(error)) throw error;
    leftOut.push(leftOutOf(`logs/${rel}`, dir, error));
    return false;
  }
  // Logs first: a checkpoint is staged after the log it must be made to fit.
  const names = listed.sort((a, b) => Number(!parseLogName(a)) - Number(!parseLogName(b)) || (a < b ? -1 : 1));
  const logsHere = names.map(parseLogName).filter((n) => n !== null && n.compressed === compress);
  const newest = logsHere.sort((a, b) => (b?.format ?? 0) - (a?.format ?? 0))[0]?.name;
  for (const name of names) {
    const parsed = parseLogName(name);
    if (!parsed && name !== LOCK_FILE && name !== CACHE_FILE) continue;
    const size = regularSize(join(dir, name), `logs/${rel}/${name}`, leftOut);
    if (size === null) continue;
    const role: FileRole = parsed ? "log" : name === LOCK_FILE ? "lock" : "checkpoint";
    const file: PlannedFile = {
      role,
      source: join(dir, name),
      path: `logs/${rel}/${name}`,
      size,
      compressed: parsed?.compressed,
      newestLog: newest,
    };
    files?.push(file);
    onFile?.(file);
    if (role === "lock") {
      try {
        const host = (JSON.parse(readFileSync(join(dir, name), "utf8")) as { host?: unknown }).host;
        if (typeof host === "string" && host) hosts.add(host);
      } catch {
        // an unreadable lock file is redacted as text like any other
      }
    }
  }
  return true;
}
