import { mkdirSync, rmSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import Database from "better-sqlite3";
import { readLockStatus } from "../fs/lock";
import { type ChatSummary, lockProblem } from "./chat";
import type { ChatLocation } from "./folder";
import { logLimits } from "./limits";
import type { LogIndex } from "./line-index";
import { CACHE_FILE, LOCK_FILE } from "./names";
import type { Problem } from "./problem";
import { decodeRemembered, encodeRemembered } from "./remembered-codec";
import { identityNow, RACY_NS, sameAndSettled } from "./stat-identity";

/**
 * What Oda Admin may remember between listings (`docs/file-contract.md`): for
 * each chat, the stat identity (device, inode, size, modification and change
 * times in nanoseconds) of its folder, its newest log and its checkpoint at the
 * moment the full rule was applied, and the details that rule gave. While all
 * three are unchanged, and none was modified within 2 seconds of that moment
 * ("racy", as git says), the details are served again without opening the log.
 * Anything else (a changed identity, a racy file, no record, an admin state
 * that cannot be read or written) falls back to the full rule. The records
 * live beside the search index, in `<state>/listing.sqlite`; deleting it loses nothing.
 */

export const LISTING_FILE = "listing.sqlite";

/** A file modified within this long of its verification is verified again (the contract's 2 seconds). */
export { RACY_NS };

/** The modification time in an identity (`null` for an absent file). */
function mtimeOf(identity: string): bigint | null {
  if (identity === "-") return null;
  return BigInt(identity.split(":")[3] as string);
}

/** True when any of the identities' files was modified within 2 seconds of `verifiedNs` (or after it). */
export function isRacy(identities: string[], verifiedNs: bigint): boolean {
  for (const id of identities) {
    const m = mtimeOf(id);
    if (m !== null && m + RACY_NS >= verifiedNs) return true;
  }
  return false;
}

/** How a listing's chats were served. */
export interface ListingCounts {
  /** Served from the admin state's memory: the three identities unchanged, none racy. */
  memory: number;
  /** The full rule applied again: details served from the checkpoint (or no log to read). */
  verified: number;
  /** The full rule applied again: details rebuilt from the log. */
  rebuilt: number;
}

/** The listing's memory, as `listChats` uses it (`openListingMemory`). */
export interface ListingMemory {
  /** Each chat's remembered summary when its identities allow serving it, else `null` (a batch of one log folder's chats). */
  serve(locs: ChatLocation[]): (ChatSummary | null)[];
  /** Keeps what the full rule gave for the chats just read (their `verified` stamps taken before reading). */
  remember(chats: ChatSummary[]): void;
  close(): void;
}

/** A record as the batch read gives it (`raw`: an array, no object per row): the columns of `range`. */
type Row = [
  folder: string,
  dirId: string,
  logName: string | null,
  logId: string,
  cacheId: string,
  verifiedNs: bigint,
  summary: string,
];

/** Bumped whenever the tables or what a record holds change: records of another version are dropped. */
const VERSION = 5;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS folders (
  rid INTEGER PRIMARY KEY,
  root TEXT NOT NULL,
  context TEXT NOT NULL,
  UNIQUE (root, context)
);
CREATE TABLE IF NOT EXISTS remembered (
  rid INTEGER NOT NULL,
  folder TEXT NOT NULL,
  dir_id TEXT NOT NULL,
  log_name TEXT,
  log_id TEXT NOT NULL,
  cache_id TEXT NOT NULL,
  verified_ns INTEGER NOT NULL,
  summary TEXT NOT NULL,
  PRIMARY KEY (rid, folder)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS line_counts (
  path TEXT PRIMARY KEY,
  log_id TEXT NOT NULL,
  verified_ns INTEGER NOT NULL,
  lines INTEGER NOT NULL,
  decoded INTEGER NOT NULL,
  line_index TEXT NOT NULL
);
`;

/** What else the details depend on: the folder's form and the log limits. */
function contextOf(compress: boolean): string {
  return JSON.stringify({ compress, limits: logLimits() });
}

/** A chat's problems with the stale-lock problem judged now, where `summarizeChat` puts it. */
function withLockNow(chat: ChatSummary, dir: string): void {
  if (chat.lock.state === "none") return;
  const path = `${dir}${sep}${LOCK_FILE}`;
  chat.lock = readLockStatus(path);
  const current = lockProblem(path, chat.lock);
  const rest = chat.problems.filter((p) => p.kind !== "lock");
  let at = 0;
  while (at < rest.length && ["form", "link", "special"].includes(rest[at]?.kind ?? "")) at++;
  chat.problems = current ? [...rest.slice(0, at), current, ...rest.slice(at)] : rest;
}

/** True when what the full rule gave may be remembered: read whole, nothing the system withheld. */
function rememberable(chat: ChatSummary): boolean {
  return !!chat.verified && !chat.problems.some((p: Problem) => p.kind === "system");
}

/**
 * The remembered summary when the chat's three identities are those of `row` and none is racy, else `null`.
 * Each identity is compared as soon as it is taken: the first one changed ends the check.
 */
function serveOne(loc: ChatLocation, row: Row): ChatSummary | null {
  const [, dirId, logName, logId, cacheId, verifiedNs, summary] = row;
  if (!sameAndSettled(loc.dir, dirId, verifiedNs)) return null;
  if (logName === null ? logId !== "-" : !sameAndSettled(`${loc.dir}${sep}${logName}`, logId, verifiedNs)) return null;
  if (!sameAndSettled(`${loc.dir}${sep}${CACHE_FILE}`, cacheId, verifiedNs)) return null;
  let chat: ChatSummary;
  try {
    // The chat's place in the folder is the listing's.
    chat = decodeRemembered(summary, loc);
  } catch {
    return null;
  }
  // A lock's holder may have died without a file changing.
  withLockNow(chat, loc.dir);
  chat.remembered = true;
  return chat;
}

/**
 * Opens the listing's memory in the state folder, made if missing. `null` when
 * it cannot be used (no state folder, not writable, damaged): the listing then
 * applies the full rule to every chat. A damaged file is removed and made anew.
 */
export function openListingMemory(state: string | null, compress: boolean): ListingMemory | null {
  if (!state) return null;
  const path = join(resolve(state), LISTING_FILE);
  let db: Database.Database;
  try {
    mkdirSync(resolve(state), { recursive: true });
    db = openDb(path);
  } catch {
    try {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
      db = openDb(path);
    } catch {
      return null;
    }
  }
  const context = contextOf(compress);
  // A batch's records in one read of the index's range: the walk's order is the folders' (ASCII names) order.
  const range = db.prepare(
    "SELECT folder, dir_id, log_name, log_id, cache_id, verified_ns, summary FROM remembered WHERE rid = ? AND folder BETWEEN ? AND ?",
  );
  range.safeIntegers(true);
  range.raw(true);
  const put = db.prepare(
    "INSERT OR REPLACE INTO remembered (rid, folder, dir_id, log_name, log_id, cache_id, verified_ns, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const drop = db.prepare("DELETE FROM remembered WHERE rid = ? AND folder = ?");
  const findRoot = db.prepare("SELECT rid FROM folders WHERE root = ? AND context = ?").pluck();
  const addRoot = db.prepare("INSERT INTO folders (root, context) VALUES (?, ?)");
  // Each log folder (and form, and limits) has its records apart: another one's are never served.
  const rids = new Map<string, number>();
  const ridOf = (root: string): number => {
    let rid = rids.get(root);
    if (rid === undefined) {
      rid = (findRoot.get(root, context) as number | undefined) ?? Number(addRoot.run(root, context).lastInsertRowid);
      rids.set(root, rid);
    }
    return rid;
  };
  const write = db.transaction((chats: ChatSummary[]) => {
    const now = BigInt(Date.now()) * 1_000_000n;
    for (const chat of chats) {
      const stamps = chat.verified;
      if (!stamps) continue;
      if (!rememberable(chat)) {
        drop.run(ridOf(stamps.root), chat.folder);
        continue;
      }
      // The chat's place and its logs' paths come from the listing's walk when served: not stored.
      put.run(
        ridOf(stamps.root),
        chat.folder,
        stamps.dir,
        stamps.logName,
        stamps.log,
        stamps.checkpoint,
        now,
        encodeRemembered(chat),
      );
    }
  });
  let broken = false;
  return {
    serve(locs) {
      const first = locs[0];
      if (broken || !first) return locs.map(() => null);
      const rows = new Map<string, Row>();
      try {
        let lo = first.folder;
        let hi = first.folder;
        for (const loc of locs) {
          if (loc.folder < lo) lo = loc.folder;
          if (loc.folder > hi) hi = loc.folder;
        }
        for (const row of range.all(ridOf(first.root), lo, hi) as Row[]) rows.set(row[0], row);
      } catch {
        broken = true;
        return locs.map(() => null);
      }
      return locs.map((loc) => {
        const row = loc.root === first.root ? rows.get(loc.folder) : undefined;
        return row ? serveOne(loc, row) : null;
      });
    },
    remember(chats) {
      if (broken || !chats.length) return;
      try {
        write(chats);
      } catch {
        broken = true;
      }
    },
    close() {
      try {
        db.close();
      } catch {
        // Already closed or never usable: nothing to keep.
      }
    },
  };
}

function openDb(path: string): Database.Database {
  const db = new Database(path, { timeout: 2000 });
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = OFF");
    db.pragma("cache_size = -16384");
    if (db.pragma("user_version", { simple: true }) !== VERSION) {
      // Another version's records (or none): started afresh, which loses nothing.
      db.exec("DROP TABLE IF EXISTS remembered; DROP TABLE IF EXISTS folders; DROP TABLE IF EXISTS line_counts;");
      db.exec(SCHEMA);
      db.pragma(`user_version = ${VERSION}`);
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** A log's line count as remembered, and the decoded bytes it was counted over. */
export interface LineCount {
  lines: number;
  decodedBytes: number;
}

/** The state folders' memory files held open by a process that asks for line counts (the server's decode worker). */
const lineDbs = new Map<string, Database.Database | null>();

function lineDb(state: string): Database.Database | null {
  let db = lineDbs.get(state);
  if (db === undefined) {
    try {
      mkdirSync(resolve(state), { recursive: true });
      db = openDb(join(resolve(state), LISTING_FILE));
    } catch {
      db = null;
    }
    lineDbs.set(state, db);
  }
  return db;
}

/**
 * Remembers a log's line index (`LogIndex`: its line count and seek points), built by reading it whole, with the
 * log's identity: taken now, it is kept only when its inode and size are the ones the index was built over, and
 * a log modified within 2 seconds of now is racy (read again), so a change made since is never served as read.
 */
export function rememberLineIndex(state: string | null, index: LogIndex): void {
  const db = state ? lineDb(state) : null;
  if (!db || index.error) return;
  try {
    const id = identityNow(index.path);
    const [, ino, size] = id.split(":");
    if (ino !== String(index.ino) || size !== String(index.size)) return;
    db.prepare(
      "INSERT OR REPLACE INTO line_counts (path, log_id, verified_ns, lines, decoded, line_index) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(index.path, id, BigInt(Date.now()) * 1_000_000n, index.lines, index.decodedBytes, JSON.stringify(index));
  } catch {
    // Not remembered: the next visit counts again, which loses nothing.
  }
}

/** The row of a log's remembered index while its identity is unchanged and not racy. */
function settledRow(state: string | null, path: string, columns: string): Record<string, unknown> | null {
  const db = state ? lineDb(state) : null;
  if (!db) return null;
  try {
    const row = db
      .prepare(`SELECT log_id, verified_ns, ${columns} FROM line_counts WHERE path = ?`)
      .safeIntegers(true)
      .get(path) as ({ log_id: string; verified_ns: bigint } & Record<string, unknown>) | undefined;
    if (!row) return null;
    const id = identityNow(path);
    return id !== row.log_id || isRacy([id], row.verified_ns) ? null : row;
  } catch {
    return null;
  }
}

/**
 * The log's remembered line index while its identity is unchanged and not racy, else `null` (also when the
 * record is not an index of this path: an admin state written by something else is read again, not trusted).
 */
export function rememberedLineIndex(state: string | null, path: string): LogIndex | null {
  const row = settledRow(state, path, "line_index");
  if (!row) return null;
  try {
    const index = JSON.parse(String(row.line_index)) as LogIndex;
    const whole =
      index?.path === path &&
      Array.isArray(index.points) &&
      Number.isSafeInteger(index.lines) &&
      Number.isSafeInteger(index.size) &&
      typeof index.check?.sha256 === "string" &&
      typeof index.tail?.state === "string";
    return whole ? index : null;
  } catch {
    return null;
  }
}

/** The log's remembered line count while its identity is unchanged and not racy, else `null`. */
export function rememberedLineCount(state: string | null, path: string): LineCount | null {
  const row = settledRow(state, path, "lines, decoded");
  return row ? { lines: Number(row.lines), decodedBytes: Number(row.decoded) } : null;
}
