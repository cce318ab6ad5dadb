import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { OdaError } from "../errors";
import { walkLogFolder } from "../sessions/folder";
import { listAllChats } from "../sessions/list";
import { CACHE_FILE, LOCK_FILE, parseLogName } from "../sessions/names";
import { readCompressSetting } from "../sessions/settings";
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

/** Everything a bundle of this scope holds, and the host names lock files name. */
export interface Plan {
  files: PlannedFile[];
  chats: { id: string; folder: string }[];
  lockHosts: string[];
  compress: boolean;
}

function regularSize(path: string): number | null {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st?.isFile() ? st.size : null;
}

function walk(root: string, rel: string, out: { rel: string; size: number }[]): void {
  let names: string[];
  try {
    names = readdirSync(join(root, rel)).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const r = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(root, r), { throwIfNoEntry: false });
    if (st?.isDirectory()) walk(root, r, out);
    else if (st?.isFile()) out.push({ rel: r, size: st.size });
  }
}

const MEMORY_FILE = /^memory\/(?:global|workspaces\/[A-Za-z0-9][A-Za-z0-9._-]*)\/[0-9a-f]{8}$/;
// Leftovers of an interrupted save and the home-wide change lock are no part of the history.
const HISTORY_SKIP = /(^memory-history\/\.lock$)|\.tmp-|~$/;

function planMemory(home: string, files: PlannedFile[]): void {
  const found: { rel: string; size: number }[] = [];
  walk(home, "memory", found);
  for (const f of found)
    if (MEMORY_FILE.test(f.rel))
      files.push({ role: "memory", source: join(home, f.rel), path: `home/${f.rel}`, size: f.size });
  const history: { rel: string; size: number }[] = [];
  walk(home, "memory-history", history);
  for (const f of history)
    if (!HISTORY_SKIP.test(f.rel))
      files.push({ role: "history", source: join(home, f.rel), path: `home/${f.rel}`, size: f.size });
}

/** Lists what a bundle of `scope` holds, reading no log. */
export async function planBundle(
  roots: { home: string | null; logs: string | null },
  scope: BundleScope,
): Promise<Plan> {
  const files: PlannedFile[] = [];
  const compress = readCompressSetting(roots.home);
  if (roots.home) {
    const size = regularSize(join(roots.home, "settings.json"));
    if (size !== null)
      files.push({ role: "settings", source: join(roots.home, "settings.json"), path: "home/settings.json", size });
    if (scope.memory) planMemory(roots.home, files);
  }
  const chats: Plan["chats"] = [];
  const lockHosts = new Set<string>();
  if (roots.logs && (scope.chats !== null || scope.since !== null)) {
    // Only --since needs each chat's last activity; otherwise the folder names say which chats there are, and
    // the logs are read once, by the doctor and the staging (listing 10,000 chats cost seconds and ~70 MB).
    const all: { id: string; folder: string; lastActivity?: string | null; created?: string | null }[] =
      scope.since === null ? walkLogFolder(roots.logs).chats : (await listAllChats(roots.logs, { compress })).chats;
    const wanted = Array.isArray(scope.chats) ? new Set(scope.chats) : null;
    for (const id of wanted ?? []) {
      if (!all.some((c) => c.id === id))
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
      chats.push({ id: chat.id, folder: chat.folder });
      planChat(roots.logs, chat.folder, compress, files, lockHosts);
    }
  }
  return { files, chats, lockHosts: [...lockHosts], compress };
}

function planChat(logs: string, folder: string, compress: boolean, files: PlannedFile[], hosts: Set<string>): void {
  const dir = join(logs, folder);
  // Logs first: a checkpoint is staged after the log it must be made to fit.
  const names = readdirSync(dir).sort(
    (a, b) => Number(!parseLogName(a)) - Number(!parseLogName(b)) || (a < b ? -1 : 1),
  );
  const logsHere = names.map(parseLogName).filter((n) => n !== null && n.compressed === compress);
  const newest = logsHere.sort((a, b) => (b?.format ?? 0) - (a?.format ?? 0))[0]?.name;
  const rel = folder.split(/[\\/]/).join("/");
  for (const name of names) {
    const parsed = parseLogName(name);
    if (!parsed && name !== LOCK_FILE && name !== CACHE_FILE) continue;
    const size = regularSize(join(dir, name));
    if (size === null) continue;
    const role: FileRole = parsed ? "log" : name === LOCK_FILE ? "lock" : "checkpoint";
    files.push({
      role,
      source: join(dir, name),
      path: `logs/${rel}/${name}`,
      size,
      compressed: parsed?.compressed,
      newestLog: newest,
    });
    if (role === "lock") {
      try {
        const host = (JSON.parse(readFileSync(join(dir, name), "utf8")) as { host?: unknown }).host;
        if (typeof host === "string" && host) hosts.add(host);
      } catch {
        // an unreadable lock file is redacted as text like any other
      }
    }
  }
}
