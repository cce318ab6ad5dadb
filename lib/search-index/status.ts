import { statSync } from "node:fs";
import { join } from "node:path";
import { type ChatSummary, lockProblem, type Problem, withPaths } from "../chats";
import type { ChatSort } from "../chats/views";
import { readLockStatus } from "../fs";
import { plural } from "../words";
import { type IndexHandle, readMeta } from "./db";
import { jobStatus, type RefreshJob } from "./jobs";
import { type IndexedGroup, IndexRows, indexedGroups, type ListRow } from "./list-rows";
import { scanChanges } from "./scan";
import { decodeSummary } from "./summary-codec";

/** How the index compares with the log folder now. */
export interface Freshness {
  /** True when a refresh has finished and no chat changed since. */
  fresh: boolean;
  /** False until a first refresh has finished. */
  built: boolean;
  refreshedAt: string | null;
  /** Chats changed, new and gone since the last refresh. */
  changed: number;
  added: number;
  removed: number;
  /** Chats in the log folder. */
  total: number;
  /** The sentence to show. */
  sentence: string;
}

/** The index's state, for the search page and `oda-admin index status`. */
export interface IndexStatus {
  path: string;
  bytes: number;
  chats: number;
  entries: number;
  freshness: Freshness;
  job: RefreshJob;
  setAside: { path: string; reason: string } | null;
  /**
   * Left out by the last refresh because the system would not give them (`lib/fs/system-error.ts`): chats
   * with a file or folder that could not be read, and folders of the log folder that could not be listed.
   */
  leftOut: number;
}

const recent = new WeakMap<IndexHandle, { at: number; refreshedAt: string | null; freshness: Freshness }>();
/** How long a freshness check is reused (several pages polling share one folder scan) while no refresh ends. */
const FRESHNESS_REUSE_MS = 3000;

/**
 * Compares the index with the folder (names, sizes and mtimes only). By default
 * a check is reused for a few seconds (the search page's polling); `reuse:
 * false` always scans, for callers that serve the index's details as current.
 */
export async function checkFreshness(
  handle: IndexHandle,
  options: { reuse?: boolean; scan?: () => Promise<Freshness>; cancelled?: () => boolean } = {},
): Promise<Freshness> {
  const refreshedAt = readMeta(handle.db, "refreshedAt");
  const known = recent.get(handle);
  if (
    options.reuse !== false &&
    known &&
    known.refreshedAt === refreshedAt &&
    Date.now() - known.at < FRESHNESS_REUSE_MS
  )
    return known.freshness;
  const freshness = await (options.scan ? options.scan() : scanFreshness(handle, options.cancelled));
  recent.set(handle, { at: Date.now(), refreshedAt, freshness });
  return freshness;
}

/** Scans the folder; what it compares with (meta and every chat's fingerprint) is read before its first await. */
async function scanFreshness(handle: IndexHandle, cancelled?: () => boolean): Promise<Freshness> {
  const refreshedAt = readMeta(handle.db, "refreshedAt");
  const knownProblems = readMeta(handle.db, "folderProblems") ?? "[]";
  const changes = await scanChanges(handle.db, handle.logDir, undefined, cancelled);
  const added = changes.added;
  const changed = changes.changed.length - added;
  const removed = changes.gone.length;
  // A folder name that stopped (or started) decoding changes no chat, but the list's folder problems.
  const folderProblems = JSON.stringify(changes.problems) !== knownProblems;
  const built = refreshedAt !== null;
  const fresh = built && !added && !changed && !removed && !folderProblems;
  let sentence: string;
  if (!built) sentence = "The search index has not been built yet.";
  else if (fresh) sentence = `The search index is up to date (${plural(changes.total, "chat")}).`;
  else {
    const parts = [
      changed && `${plural(changed, "chat")} changed`,
      added && `${plural(added, "chat")} new`,
      removed && `${plural(removed, "chat")} removed`,
      folderProblems && "the folder's own problems changed",
    ].filter(Boolean);
    sentence = `The search index is behind the log folder: ${parts.join(", ")} since it was refreshed at ${refreshedAt}.`;
  }
  return { fresh, built, refreshedAt, changed, added, removed, total: changes.total, sentence };
}

/** The freshness to show while a refresh runs: not fresh, without scanning the folder. */
function refreshingFreshness(handle: IndexHandle): Freshness {
  const refreshedAt = readMeta(handle.db, "refreshedAt");
  return {
    fresh: false,
    built: refreshedAt !== null,
    refreshedAt,
    changed: 0,
    added: 0,
    removed: 0,
    total: 0,
    sentence: "The search index is being refreshed.",
  };
}

/**
 * The index's size, counts, freshness and refresh job. `scan` runs the folder check elsewhere (the server's
 * decode worker): at 100,000 chats it holds a thread for seconds, and the search page polls this status.
 */
export async function readIndexStatus(handle: IndexHandle, scan?: () => Promise<Freshness>): Promise<IndexStatus> {
  const count = (sql: string) => (handle.db.prepare(sql).get() as { n: number }).n;
  // While a refresh runs the folder is not scanned again (the polling would slow the refresh down).
  const job = jobStatus(handle);
  let bytes = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      bytes += statSync(handle.path + suffix).size;
    } catch {
      // No WAL file yet.
    }
  }
  return {
    path: handle.path,
    bytes,
    chats: count("SELECT count(*) AS n FROM chats"),
    entries: count("SELECT count(*) AS n FROM entries"),
    freshness: job.running ? refreshingFreshness(handle) : await checkFreshness(handle, scan ? { scan } : {}),
    job,
    setAside: handle.setAside,
    leftOut: countLeftOut(handle),
  };
}

/** How many chats and folders the last refresh left out as unreadable; a damaged record counts none. */
function countLeftOut(handle: IndexHandle): number {
  try {
    const chats: unknown = JSON.parse(readMeta(handle.db, "unreadableChats") ?? "{}");
    const folder: unknown = JSON.parse(readMeta(handle.db, "folderProblems") ?? "[]");
    const n = chats && typeof chats === "object" ? Object.keys(chats).length : 0;
    return n + (Array.isArray(folder) ? folder.filter((p) => (p as Problem | null)?.kind === "system").length : 0);
  } catch {
    return 0;
  }
}

/** The chat list as the index holds it, and whether that is current. */
export interface IndexedChatList {
  chats: ChatSummary[];
  /** Folder-level problems found at the last refresh. */
  problems: Problem[];
  freshness: Freshness;
  /** Where each chat's details came from when it was indexed. */
  sources: Record<string, "checkpoint" | "log">;
}

/**
 * A chat's problems with its lock judged now: the stale-lock problem stored at
 * index time is dropped and the current one (if any) takes its place, where
 * `summarizeChat` puts it (after the form problems).
 */
function withCurrentLock(problems: Problem[], current: Problem | null): Problem[] {
  const rest = problems.filter((p) => p.kind !== "lock");
  if (!current) return rest;
  let at = 0;
  while (at < rest.length && ["form", "link", "special"].includes(rest[at]?.kind ?? "")) at++;
  return [...rest.slice(0, at), current, ...rest.slice(at)];
}

/** A lock's holder can die without any file changing: judges the chat's lock again now, and its problem with it. */
export function judgeLockNow(chat: ChatSummary, logDir: string): void {
  if (chat.lock.state === "none") return;
  const path = join(logDir, chat.folder, "session.lock");
  chat.lock = readLockStatus(path);
  chat.problems = withCurrentLock(chat.problems, lockProblem(path, chat.lock));
}

/** A chat's summary from its index row, as the list shows it: its problems' paths given, its lock judged now. */
export function summaryOfRow(row: ListRow, logDir: string): ChatSummary {
  const chat = decodeSummary(row.summary, row, logDir);
  chat.problems = chat.problems.map(withPaths);
  judgeLockNow(chat, logDir);
  return chat;
}

/**
 * The freshness once the folder's form is counted: an index refreshed under
 * the other form (`form`, its meta) judged every log against it, so it is not fresh.
 */
export function withForm(freshness: Freshness, form: string | null, compress: boolean | undefined): Freshness {
  if (!freshness.fresh || compress === undefined || form === String(compress)) return freshness;
  const kind = (z: boolean) => (z ? "zstd-compressed" : "plain");
  return {
    ...freshness,
    fresh: false,
    sentence: `The search index is behind the log folder: it was refreshed for ${form === null ? "another form of" : kind(form === "true")} logs, and the folder now keeps ${kind(compress)} logs.`,
  };
}

/** Options for `listChatsFromIndex`. */
export interface ListFromIndexOptions {
  /**
   * The folder's form now (`sessions.compress`): an index refreshed under the
   * other form judged the logs against it, so it is not fresh.
   */
  compress?: boolean;
  /**
   * Runs the folder check elsewhere (the server's decode worker, through
   * `checkIndexFreshness` on its own connection) instead of on this thread.
   */
  check?: () => Promise<Freshness>;
  /** Rows read at once, before any other (the chat list's first batch; default 200). */
  firstPage?: number;
  /** The rows' order (default: newest activity first), read from its index (`list-order.ts`). */
  order?: ChatSort;
  /** False: no groups read (a list read a window at a time has its own; 0.1 s and more at 100,000 chats). */
  groups?: boolean;
}

/** The index's chat list before its freshness is known: the rows, and the check of them under way. */
export interface IndexedChatRows extends Omit<IndexedChatList, "freshness" | "chats"> {
  /** How many chats the index holds. */
  count: number;
  /**
   * Chats `from` to `to` (excluded), in the list's order, parsed when asked
   * for: 100,000 summaries parsed at once would hold the event loop for
   * seconds before the first rows go out.
   */
  chatsAt(from: number, to: number): ChatSummary[];
  /** The folder compared with the rows just read (see `listChatsFromIndex`). */
  freshness: Promise<Freshness>;
  /** False until a first refresh has finished (the rows are then no list at all). */
  built: boolean;
  /** Every working-folder group with its count, read with the first rows (the same turn, the same connection). */
  groups: IndexedGroup[];
  /** The order of `chatsAt`. */
  order: ChatSort;
}

/**
 * The chat list served from the index (no log is opened), with its
 * freshness: when it is not fresh, the caller says so and may start a refresh.
 * Each lock is judged again now (a holder may have died since indexing, which
 * changes no file). Chats are ordered by last activity, newest first.
 */
export async function listChatsFromIndex(
  handle: IndexHandle,
  options: ListFromIndexOptions = {},
): Promise<IndexedChatList> {
  const {
    built: _built,
    count,
    chatsAt,
    groups: _groups,
    order: _order,
    ...rows
  } = readChatsFromIndex(handle, options);
  return { ...rows, chats: chatsAt(0, count), freshness: await rows.freshness };
}

/**
 * The folder check of `readChatsFromIndex`, for a thread of its own (the
 * server's decode worker). Its connection may see a refresh that ended after
 * the rows were read; `readChatsFromIndex` compares `refreshedAt` (rows older
 * than the index are not fresh, whatever the folder says). With `cancelled`, the walk looks at it every few
 * chats and ends with `checkCancelled()`'s error once it says nobody waits any more (`scan.ts`).
 */
export function checkIndexFreshness(handle: IndexHandle, cancelled?: () => boolean): Promise<Freshness> {
  return checkFreshness(handle, { reuse: false, ...(cancelled ? { cancelled } : {}) });
}

/**
 * The index's rows at once (each parsed when asked for), and their freshness
 * check started (not awaited): the chat list shows the rows first and says so
 * while the check runs.
 */
export function readChatsFromIndex(handle: IndexHandle, options: ListFromIndexOptions = {}): IndexedChatRows {
  const db = handle.db;
  // The first rows, the folder problems, the form and (inside the scan, before its first await) the
  // fingerprints they are compared by are read in one turn of the event loop; later rows are read as they
  // are asked for, and a refresh that ended meanwhile makes the list not current (`refreshedSince`), so
  // older rows never look current. The check is never reused: a change a second ago must not be served as fresh.
  const rows = new IndexRows(db, options.firstPage ?? 200, options.order);
  const groups = options.groups === false ? [] : indexedGroups(db);
  // An index written before problems carried their paths is read as if it had them.
  const problems = (JSON.parse(readMeta(db, "folderProblems") ?? "[]") as Problem[]).map(withPaths);
  const form = readMeta(db, "compress");
  const refreshedAt = readMeta(db, "refreshedAt");
  // Rows read under another refresh than the one checked (or than each other) are not current.
  const current = (f: Freshness) =>
    f.refreshedAt === refreshedAt && !rows.refreshedSince() ? f : { ...f, fresh: false };
  const scanned = (options.check ? options.check() : checkFreshness(handle, { reuse: false })).then(current);
  const sources: Record<string, "checkpoint" | "log"> = {};
  const parse = (r: ListRow): ChatSummary => {
    sources[r.id] = r.source;
    return summaryOfRow(r, handle.logDir);
  };
  const chatsAt = (from: number, to: number) => rows.at(from, to).map(parse);
  const freshness = scanned.then((f) => withForm(f, form, options.compress));
  // Awaited by the caller once the rows are shown; handled now so a failure meanwhile is not unhandled.
  freshness.catch(() => {});
  return {
    count: rows.count,
    chatsAt,
    problems,
    sources,
    freshness,
    built: refreshedAt !== null,
    groups,
    order: rows.order,
  };
}
