import type Database from "better-sqlite3";
import { perConnection } from "./per-connection";

/**
 * The refresh's statements, prepared once per connection: a full build runs
 * them for 100,000 chats, and preparing them again for each was a cost of its own.
 */

/** The prepared statements of a chat's re-read. */
export interface ChatStatements {
  upsert: Database.Statement;
  summaryOnly: Database.Statement;
  lastEntry: Database.Statement;
  insertLine: Database.Statement;
  insertFts: Database.Statement;
  indexedAt: Database.Statement;
}

/** This connection's statements (prepared on first use). */
export const chatStatements = perConnection<ChatStatements>((db) => ({
  upsert: db.prepare(`
    INSERT INTO chats (id, folder, cwd, title, first_activity, last_activity, messages, problems, source, fingerprint,
      log_name, log_size, log_mtime, log_ino, text_lines, seek_line, seek_dec, seek_comp, seek_sha, text_error, bad_lines, summary, indexed_at,
      start_q, format, log_dec, old_bytes, old_logs, cache_bytes, lock_bytes)
    VALUES (@id, @folder, @cwd, @title, @first_activity, @last_activity, @messages, @problems, @source, @fingerprint,
      @log_name, @log_size, @log_mtime, @log_ino, @text_lines, @seek_line, @seek_dec, @seek_comp, @seek_sha, @text_error, @bad_lines, @summary, @indexed_at,
      @start_q, @format, @log_dec, @old_bytes, @old_logs, @cache_bytes, @lock_bytes)
    ON CONFLICT(id) DO UPDATE SET folder = excluded.folder, cwd = excluded.cwd, title = excluded.title,
      first_activity = excluded.first_activity, last_activity = excluded.last_activity, messages = excluded.messages,
      problems = excluded.problems, source = excluded.source, fingerprint = excluded.fingerprint,
      log_name = excluded.log_name, log_size = excluded.log_size, log_mtime = excluded.log_mtime, log_ino = excluded.log_ino,
      text_lines = excluded.text_lines, seek_line = excluded.seek_line, seek_dec = excluded.seek_dec,
      seek_comp = excluded.seek_comp, seek_sha = excluded.seek_sha, text_error = excluded.text_error, bad_lines = excluded.bad_lines,
      summary = excluded.summary, indexed_at = excluded.indexed_at, start_q = excluded.start_q, format = excluded.format, log_dec = excluded.log_dec,
      old_bytes = excluded.old_bytes, old_logs = excluded.old_logs, cache_bytes = excluded.cache_bytes, lock_bytes = excluded.lock_bytes
    RETURNING cid`),
  summaryOnly: db.prepare(
    `UPDATE chats SET folder = @folder, cwd = @cwd, title = @title, first_activity = @first_activity, last_activity = @last_activity,
        messages = @messages, source = @source, summary = @summary, indexed_at = @indexed_at, fingerprint = @fingerprint,
        problems = @problems, start_q = @start_q, format = @format, old_bytes = @old_bytes, old_logs = @old_logs, cache_bytes = @cache_bytes,
        lock_bytes = @lock_bytes WHERE cid = @cid`,
  ),
  lastEntry: db.prepare("SELECT max(id) AS id FROM entries WHERE id >= CAST(? AS INTEGER) AND id < CAST(? AS INTEGER)"),
  // A JavaScript number is bound as a REAL: the compact role and time are stored as the integers they are.
  insertLine: db.prepare(
    `INSERT INTO entries (id, line, r, t) VALUES (CAST(@id AS INTEGER), @line,
      CASE typeof(@r) WHEN 'real' THEN CAST(@r AS INTEGER) ELSE @r END, CASE typeof(@t) WHEN 'real' THEN CAST(@t AS INTEGER) ELSE @t END)`,
  ),
  insertFts: db.prepare("INSERT INTO lines_fts (rowid, text) VALUES (CAST(? AS INTEGER), ?)"),
  indexedAt: db.prepare("SELECT indexed_at FROM chats WHERE cid = ?").pluck(),
}));
