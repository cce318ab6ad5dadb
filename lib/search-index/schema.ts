import { ENTRIES_SCHEMA } from "./entry-codec";
import { SORT_INDEXES } from "./list-order";
import { USAGE_SCHEMA } from "./usage";

/**
 * The index's tables. Searching needs only the FTS5 index (which chat and
 * entry a word is in) and, for the few hits shown, their text: the FTS table
 * is contentless and the text is kept compressed in blocks (`texts.ts`), or,
 * past the first MiBs of a large log, not kept at all but read back from the
 * log (`log-texts.ts`), so the file is smaller than the text it indexes.
 */

/**
 * What a word is: letters, numbers, private-use characters and symbols
 * (`So`: emoji, ✓, ©), so an emoji a user pastes is found; punctuation still
 * separates words.
 */
export const TOKENIZER = "unicode61 remove_diacritics 2 categories 'L* N* Co So'";

/** The FTS5 table's definition (its name is given: the snippet cutter builds one in memory too). */
export function ftsTable(name: string, options = ""): string {
  return `CREATE VIRTUAL TABLE ${name} USING fts5(text${options}, tokenize="${TOKENIZER}")`;
}

export const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE chats (
  cid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  folder TEXT NOT NULL,
  cwd TEXT,
  title TEXT,
  first_activity TEXT,
  last_activity TEXT,
  messages INTEGER NOT NULL,
  problems INTEGER NOT NULL,
  source TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  log_name TEXT,
  log_size INTEGER,
  log_mtime REAL,
  log_ino INTEGER,
  text_lines INTEGER NOT NULL DEFAULT 0,
  seek_line INTEGER,
  seek_dec INTEGER,
  seek_comp INTEGER,
  seek_sha TEXT,
  text_error TEXT,
  bad_lines INTEGER NOT NULL DEFAULT 0,
  summary TEXT NOT NULL,
  indexed_at TEXT NOT NULL,
  -- Storage facts for Insights (see usage.ts): the current log's format and decompressed bytes of its
  -- complete lines, the older generations, the checkpoint and the lock; the quarter hour it started.
  start_q INTEGER,
  -- The chat's usage totals (sums of its usage rows), so all-time reports need not scan them.
  u_messages INTEGER NOT NULL DEFAULT 0,
  u_bare INTEGER NOT NULL DEFAULT 0,
  u_input INTEGER NOT NULL DEFAULT 0,
  u_output INTEGER NOT NULL DEFAULT 0,
  format INTEGER,
  log_dec INTEGER,
  old_bytes INTEGER NOT NULL DEFAULT 0,
  old_logs INTEGER NOT NULL DEFAULT 0,
  cache_bytes INTEGER NOT NULL DEFAULT 0,
  lock_bytes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX chats_cwd ON chats(cwd);
CREATE INDEX chats_start ON chats(start_q);
-- Newest first, as search results come: a query matching almost everywhere probes chats in this order.
CREATE INDEX chats_recent ON chats(last_activity IS NULL, last_activity DESC, cid);
-- The chat list's orders, one index a sortable column (list-order.ts): a page is a seek, no sort.
${SORT_INDEXES}
-- Covers every Insights query over the chats: they scan this narrow copy instead of rows whose summary spills
-- into overflow pages (the columns after it would cost a page chain each).
CREATE INDEX chats_insights ON chats(cwd, start_q, format, log_size, log_dec, old_bytes, old_logs, cache_bytes, lock_bytes,
  u_messages, u_bare, u_input, u_output, id);
${ENTRIES_SCHEMA}
-- The entries' text, compressed a block of consecutive entries at a time; id is the block's first entry.
CREATE TABLE texts (id INTEGER PRIMARY KEY, data BLOB NOT NULL);
-- Where the text of the entries in no block is read back from a chat's log (log-texts.ts): frame boundaries at
-- line starts, each with the complete lines before it and its decoded and file offsets.
CREATE TABLE seeks (cid INTEGER NOT NULL, line INTEGER NOT NULL, dec INTEGER NOT NULL, comp INTEGER NOT NULL,
  PRIMARY KEY (cid, line)) WITHOUT ROWID;
${ftsTable("lines_fts", ", content='', contentless_delete=1")};
CREATE TRIGGER lines_ad AFTER DELETE ON entries BEGIN
  DELETE FROM lines_fts WHERE rowid = old.id;
END;
${USAGE_SCHEMA}`;
