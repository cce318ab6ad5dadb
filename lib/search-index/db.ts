import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { requireRoot } from "../roots";
import { restoreIndexes } from "./deferred-indexes";
import { SORT_INDEXES } from "./list-order";
import type { Db } from "./per-connection";
import { SCHEMA } from "./schema";

/**
 * The search index's SQLite file, `<state>/index.sqlite`: a cache of the log
 * folder, never the source of truth. A file that is not a database, fails its
 * checks, has another schema or was built for another log folder is renamed
 * aside (`index.sqlite.corrupt-<timestamp>`), a new one is built in its
 * place, and the one set aside is removed: it is Oda Admin's own cache, and
 * kept it would only fill the state folder, one copy per damage.
 */

/**
 * Bumped whenever the tables or the tokenizer change: an index of another
 * version is set aside, removed and rebuilt (5: contentless FTS with compressed text
 * blocks, and symbols such as emoji are words; 6: summaries kept compactly,
 * `summary-codec.ts`, and 32 K text blocks; 7: the per-entry table in compact
 * form behind the `lines` view, `entry-codec.ts`, small text blocks compressed
 * with the index's dictionary and every block tagged, `text-codec.ts`, and
 * pages freed by a full build's merge given back, `auto_vacuum`; 8: the text of
 * entries deep in a large log read back from the log through seek points,
 * `log-texts.ts`; 9: the chat list's order as an index, `chats_list`, since replaced by one index per
 * sortable column, `list-order.ts`, which an index of version 9 gains when it is opened: no bump).
 */
export const SCHEMA_VERSION = 9;

/**
 * A text entry's rowid is `cid * ENTRY_SPAN + n` (n counts the chat's entries
 * in line order), so a search finds each hit's chat from the FTS index alone,
 * without reading the content table.
 */
export const ENTRY_SPAN = 2 ** 24;
export const INDEX_FILE = "index.sqlite";

export type { Db };

/** An open index: the connection and where it lives. */
export interface IndexHandle {
  db: Db;
  path: string;
  logDir: string;
  /** Set when an earlier file could not be used: the name it was set aside under (then removed), and why. */
  setAside: { path: string; reason: string } | null;
}

const open = new Map<string, IndexHandle>();

/**
 * The index file of a state folder; refused without one in the one sentence
 * for a missing admin state (`lib/roots.ts`; the server checks its own first).
 */
export function indexPath(state: string | null): string {
  return join(resolve(requireRoot({ state }, "state")), INDEX_FILE);
}

function setAsidePath(path: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  let target = `${path}.corrupt-${stamp}`;
  for (let n = 2; existsSync(target); n++) target = `${path}.corrupt-${stamp}-${n}`;
  return target;
}

/**
 * Renames a bad index (and its WAL files) aside, so that no connection opens
 * it at its name again, and removes it. A connection that still has it open
 * (another process) keeps reading its own copy until it closes.
 */
function setAside(path: string): string {
  const target = setAsidePath(path);
  renameSync(path, target);
  for (const suffix of ["-wal", "-shm"]) {
    if (existsSync(path + suffix)) renameSync(path + suffix, target + suffix);
  }
  for (const suffix of ["", "-wal", "-shm"]) rmSync(target + suffix, { force: true });
  return target;
}

/** Removes the bad files an earlier version set aside and kept (`index.sqlite.corrupt-*`). */
function removeOldSetAside(path: string): void {
  const folder = resolve(path, "..");
  const prefix = `${INDEX_FILE}.corrupt-`;
  for (const name of readdirSync(folder)) if (name.startsWith(prefix)) rmSync(join(folder, name), { force: true });
}

function createFresh(path: string, logDir: string): Db {
  const db = new Database(path);
  // Set before any table exists: a full build's final FTS merge frees the pages of every segment it merged, and
  // `incremental_vacuum` (refresh.ts) gives them back to the disk instead of leaving them in the file.
  db.pragma("auto_vacuum = INCREMENTAL");
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.exec(SCHEMA);
  const put = db.prepare("INSERT INTO meta(key, value) VALUES (?, ?)");
  put.run("schemaVersion", String(SCHEMA_VERSION));
  put.run("logDir", logDir);
  put.run("createdAt", new Date().toISOString());
  return db;
}

/** Opens an existing file and checks it; returns the reason it cannot be used, or the connection. */
function openExisting(path: string, logDir: string): Db | string {
  let db: Db | null = null;
  try {
    db = new Database(path, { fileMustExist: true });
    db.pragma("busy_timeout = 5000");
    const rows = db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[];
    const meta = new Map(rows.map((r) => [r.key, r.value]));
    const version = meta.get("schemaVersion");
    if (version !== String(SCHEMA_VERSION)) {
      db.close();
      return `it has schema version ${version ?? "none"}, this dashboard uses ${SCHEMA_VERSION}`;
    }
    if (meta.get("logDir") !== logDir) {
      db.close();
      return `it was built for the log folder ${meta.get("logDir")}, not ${logDir}`;
    }
    db.prepare("SELECT count(*) FROM chats").get();
    db.prepare("SELECT count(*) FROM lines_fts WHERE lines_fts MATCH 'x'").get();
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    addSortIndexes(db);
    return db;
  } catch (error) {
    try {
      db?.close();
    } catch {
      // Closing a connection to a damaged file may fail too; the file is set aside either way.
    }
    return (error as Error).message;
  }
}

/**
 * Adds the chat list's sort indexes to an index built before them (same version: they are derived from the
 * chats' rows, so no log is read again). Not done now (another connection holding the write lock past the
 * busy timeout) is done at a later open; meanwhile the list's orders are sorted by SQLite, slower, not wrong.
 */
function addSortIndexes(db: Db): void {
  try {
    // Those a first build dropped and did not make again (it stopped half-way: `deferred-indexes.ts`) first;
    // none while that build still runs: it makes them at its end.
    if (restoreIndexes(db, true)) db.exec(SORT_INDEXES);
  } catch (error) {
    console.error("oda-admin: the chat list's sort indexes could not be added yet:", error);
  }
}

/**
 * Opens (creating when needed) the index of `logDir` in the state folder.
 * Connections are kept per file for the life of the process.
 */
export function openIndex(state: string | null, logDir: string): IndexHandle {
  const path = indexPath(state);
  const logs = resolve(logDir);
  const key = `${path}\0${logs}`;
  const known = open.get(key);
  if (known?.db.open) return known;
  mkdirSync(resolve(path, ".."), { recursive: true });
  removeOldSetAside(path);
  let setAsideInfo: IndexHandle["setAside"] = null;
  let db: Db;
  if (existsSync(path)) {
    const opened = openExisting(path, logs);
    if (typeof opened === "string") {
      setAsideInfo = { path: setAside(path), reason: opened };
      db = createFresh(path, logs);
    } else db = opened;
  } else db = createFresh(path, logs);
  const handle: IndexHandle = { db, path, logDir: logs, setAside: setAsideInfo };
  open.set(key, handle);
  return handle;
}

/**
 * A read-only connection of its own to the index file of `handle`, for a long read in slices (`chat-facts.ts`);
 * its caller closes it. WAL mode lets it read while the index's own connection and its writer go on.
 */
export function openReader(handle: IndexHandle): Db {
  const db = new Database(handle.path, { readonly: true, fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  return db;
}

/**
 * Called when SQLite reports damage while the index is in use: closes it, sets
 * the file aside and opens a fresh one in its place.
 */
export function rebuildIndex(handle: IndexHandle, reason: string): IndexHandle {
  for (const [key, h] of open) if (h === handle) open.delete(key);
  try {
    handle.db.close();
  } catch {
    // Already unusable.
  }
  const state = resolve(handle.path, "..");
  const aside = existsSync(handle.path) ? setAside(handle.path) : null;
  const fresh = openIndex(state, handle.logDir);
  fresh.setAside = aside ? { path: aside, reason } : null;
  return fresh;
}

/**
 * Forgets this process's connection to an index file that another connection
 * (the server's refresh worker) set aside and replaced: the next `openIndex`
 * opens the new file, reporting where the old one went.
 */
export function reopenIndex(handle: IndexHandle, setAsideInfo: IndexHandle["setAside"]): IndexHandle {
  for (const [key, h] of open) if (h === handle) open.delete(key);
  try {
    handle.db.close();
  } catch {
    // Already unusable.
  }
  const fresh = openIndex(resolve(handle.path, ".."), handle.logDir);
  fresh.setAside = setAsideInfo;
  return fresh;
}

/** Closes every open index (tests). */
export function closeAllIndexes(): void {
  for (const h of open.values()) if (h.db.open) h.db.close();
  open.clear();
}

/** True for SQLite errors that mean the file itself is damaged. */
export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

/** Reads one meta value. */
export function readMeta(db: Db, key: string): string | null {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

/** Writes one meta value. */
export function writeMeta(db: Db, key: string, value: string): void {
  db.prepare("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(
    key,
    value,
  );
}
