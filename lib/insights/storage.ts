import type { Db } from "../search-index/db";

/**
 * Where the log folder's disk space goes, from the index's per-chat rows
 * (sizes found by stat when each chat was indexed; decompressed sizes counted
 * while its lines were read): nothing is decompressed again.
 */

/** Byte sums over some chats. */
export interface StorageSums {
  chats: number;
  /** The current logs as stored, and what their complete lines decompress to. */
  currentBytes: number;
  decompressedBytes: number;
  /** Logs of older generations (kept beside the current one by an upgrade; nothing removes them). */
  olderBytes: number;
  olderLogs: number;
  checkpointBytes: number;
  checkpoints: number;
  lockBytes: number;
  locks: number;
  /** Everything above that is on disk. */
  totalBytes: number;
}

/** One folder's space (`cwd` null: chats with no working folder). */
export interface FolderStorage extends StorageSums {
  cwd: string | null;
}

/** One chat's space. */
export interface ChatStorageRow extends StorageSums {
  id: string;
  title: string | null;
  cwd: string | null;
  /** The current log's format (null: no usable log). */
  format: number | null;
}

/**
 * Current logs per format. `format` null is the chats with log files none of which can be used (of the other
 * form, or not to be opened: `docs/file-contract.md`, Layout): `logs` counts those chats, and their bytes are 0
 * here (the files' sizes are under the totals' older generations, as every log but a current one is). A chat
 * folder with no log file at all has no row.
 */
export interface GenerationStorage {
  format: number | null;
  logs: number;
  bytes: number;
  decompressedBytes: number;
}

/** The storage report: one stable shape for `oda-admin storage --json` and the page. */
export interface StorageReport {
  cwd: string | null;
  totals: StorageSums;
  byFormat: GenerationStorage[];
  folders: FolderStorage[];
  largest: ChatStorageRow[];
}

const SUMS = `count(*) AS chats, coalesce(sum(log_size), 0) AS cur, coalesce(sum(coalesce(log_dec, log_size)), 0) AS dec,
  coalesce(sum(old_bytes), 0) AS old, coalesce(sum(old_logs), 0) AS oldn, coalesce(sum(cache_bytes), 0) AS cache,
  count(nullif(cache_bytes, 0)) AS caches, coalesce(sum(lock_bytes), 0) AS lock, count(nullif(lock_bytes, 0)) AS locks`;

type SumRow = {
  chats: number;
  cur: number;
  dec: number;
  old: number;
  oldn: number;
  cache: number;
  caches: number;
  lock: number;
  locks: number;
};

function toSums(r: SumRow): StorageSums {
  return {
    chats: r.chats,
    currentBytes: r.cur,
    decompressedBytes: r.dec,
    olderBytes: r.old,
    olderLogs: r.oldn,
    checkpointBytes: r.cache,
    checkpoints: r.caches,
    lockBytes: r.lock,
    locks: r.locks,
    totalBytes: r.cur + r.old + r.cache + r.lock,
  };
}

/** The space of the whole folder (or one working folder's chats), per folder, per format and the largest chats. */
export function storageReport(db: Db, options: { cwd?: string; limit?: number } = {}): StorageReport {
  const cwd = options.cwd === undefined ? null : options.cwd;
  const where = cwd === null ? "1" : cwd === "" ? "cwd IS NULL" : "cwd = ?";
  const params = cwd ? [cwd] : [];
  const limit = Math.max(1, Math.floor(options.limit ?? 20));
  const totals = toSums(db.prepare(`SELECT ${SUMS} FROM chats WHERE ${where}`).get(...params) as SumRow);
  const folders = (
    db.prepare(`SELECT cwd, ${SUMS} FROM chats WHERE ${where} GROUP BY cwd`).all(...params) as (SumRow & {
      cwd: string | null;
    })[]
  )
    .map((r) => ({ cwd: r.cwd, ...toSums(r) }))
    .sort((a, b) => b.totalBytes - a.totalBytes || ((a.cwd ?? "") < (b.cwd ?? "") ? -1 : 1));
  const byFormat = db
    .prepare(
      // A chat with no current log has no log_size: its unusable files are its "older" ones (chatFacts).
      `SELECT format, count(CASE WHEN format IS NULL THEN nullif(old_logs, 0) ELSE log_size END) AS logs,
         coalesce(sum(log_size), 0) AS bytes, coalesce(sum(coalesce(log_dec, log_size)), 0) AS dec
       FROM chats WHERE ${where} GROUP BY format ORDER BY format`,
    )
    .all(...params) as { format: number | null; logs: number; bytes: number; dec: number }[];
  const largest = db
    .prepare(
      // The top chats are found in the covering index; only they are read from the table, for their titles.
      `SELECT c.id, c.title, t.* FROM (SELECT cid, id AS sid, cwd, format, 1 AS chats, coalesce(log_size, 0) AS cur,
         coalesce(log_dec, log_size, 0) AS dec, old_bytes AS old, old_logs AS oldn, cache_bytes AS cache,
         cache_bytes > 0 AS caches, lock_bytes AS lock, lock_bytes > 0 AS locks FROM chats WHERE ${where}
         ORDER BY cur + old + cache + lock DESC, sid LIMIT ${limit}) t
       JOIN chats c ON c.cid = t.cid ORDER BY t.cur + t.old + t.cache + t.lock DESC, t.sid`,
    )
    .all(...params) as (SumRow & { id: string; title: string | null; cwd: string | null; format: number | null })[];
  return {
    cwd,
    totals,
    byFormat: byFormat
      .filter((r) => r.format !== null || r.logs > 0)
      .map((r) => ({ format: r.format, logs: r.logs, bytes: r.bytes, decompressedBytes: r.dec })),
    folders,
    largest: largest.map((r) => ({ id: r.id, title: r.title, cwd: r.cwd, format: r.format, ...toSums(r) })),
  };
}
