import { statSync } from "node:fs";
import { isOdaError } from "../errors";
import { type ChatSummary, hashLogTail, type SeekPoint, streamLog, summarizeChat } from "../sessions";
// The line splitter is the reader's own, so line numbers here are the inspector's.
import { LineSplitter, parseObject } from "../sessions/lines";
import { type Db, ENTRY_SPAN, type IndexHandle, isCorruption, readMeta, rebuildIndex, writeMeta } from "./db";
import { extractText } from "./extract";
import { type IndexedChat, readIndexedChat, type SeenChat, scanChanges } from "./scan";
import { chatFacts, deleteUsage, UsageBatch } from "./usage";

/**
 * The incremental refresh: only chats whose files changed are re-read; a log
 * that only grew (same file, bigger, the bytes before the last indexed seek
 * point unchanged) has only its new lines indexed; chats that are gone are
 * dropped. Work is done chat by chat, yielding to the event loop between
 * chats, so a server keeps answering while it runs.
 */

/** Options for `refreshIndex`. */
export interface RefreshOptions {
  /** The folder's form (`sessions.compress`, default true). */
  compress?: boolean;
  /** Called with chats done and to do (the changed ones). */
  onProgress?: (done: number, total: number) => void;
  /** Stops between chats when aborted (what was done stays). */
  signal?: AbortSignal;
}

/** What a refresh did. */
export interface RefreshResult {
  /** Chats in the log folder. */
  chats: number;
  /** Chats new to the index. */
  added: number;
  /** Chats whose files changed. */
  changed: number;
  removed: number;
  /** Chats whose log only grew: only the new lines were read. */
  appended: number;
  /** Chats whose log was read from its start. */
  reindexed: number;
  /** Lines of log read. */
  linesRead: number;
  ms: number;
  /** Set when the index file was damaged and set aside: where it went and why. */
  setAside: { path: string; reason: string } | null;
}

const FLUSH_ROWS = 5000;

/** Rows of text ready to insert. */
interface Pending {
  line: number;
  role: string;
  ts: string | null;
  text: string;
}

function problemCount(summary: ChatSummary, textError: string | null, badLines: number): number {
  return summary.problems.length + (textError ? 1 : 0) + (summary.tail === null ? badLines : 0);
}

/** Re-reads one chat: its summary, and its text from the start or from where the index stopped. */
async function refreshChat(
  db: Db,
  seen: SeenChat,
  row: IndexedChat | null,
  compress: boolean,
): Promise<{ mode: "append" | "full" | "summary"; lines: number }> {
  const summary = await summarizeChat(seen.loc, { compress });
  const current = summary.generations.find((g) => g.current) ?? null;
  const st = current ? statSync(current.path) : null;
  const now = new Date().toISOString();
  const base = {
    id: summary.id,
    folder: summary.folder,
    cwd: summary.cwd,
    title: summary.title,
    first_activity: summary.firstActivity,
    last_activity: summary.lastActivity,
    messages: summary.messages,
    source: summary.cached ? "checkpoint" : "log",
    summary: JSON.stringify(summary),
    indexed_at: now,
    ...chatFacts(summary, seen.loc.dir),
  };
  const upsert = db.prepare(`
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
    RETURNING cid`);
  const deleteLines = db.prepare("DELETE FROM lines WHERE id >= ? AND id < ?");
  const lastEntry = db.prepare("SELECT max(id) AS id FROM lines WHERE id >= ? AND id < ?");
  const insertLine = db.prepare("INSERT INTO lines (id, cid, line, role, ts, text) VALUES (?, ?, ?, ?, ?, ?)");

  // Unchanged log (only the checkpoint or the lock changed): the summary alone is refreshed.
  const sameLog =
    row &&
    current &&
    st &&
    row.log_name === current.name &&
    row.log_ino === st.ino &&
    row.log_size === st.size &&
    row.log_mtime === st.mtimeMs;
  if (sameLog && row) {
    const stored = db.prepare("SELECT text_error, bad_lines FROM chats WHERE cid = ?").get(row.cid) as {
      text_error: string | null;
      bad_lines: number;
    };
    db.prepare(
      `UPDATE chats SET folder = @folder, cwd = @cwd, title = @title, first_activity = @first_activity, last_activity = @last_activity,
        messages = @messages, source = @source, summary = @summary, indexed_at = @indexed_at, fingerprint = @fingerprint,
        problems = @problems, start_q = @start_q, format = @format, old_bytes = @old_bytes, old_logs = @old_logs, cache_bytes = @cache_bytes,
        lock_bytes = @lock_bytes WHERE cid = @cid`,
    ).run({
      ...base,
      fingerprint: seen.fingerprint,
      problems: problemCount(summary, stored.text_error, stored.bad_lines),
      cid: row.cid,
    });
    return { mode: "summary", lines: 0 };
  }

  const grown =
    row &&
    current &&
    st &&
    row.log_name === current.name &&
    row.log_ino === st.ino &&
    row.log_size !== null &&
    st.size > row.log_size &&
    row.seek_comp !== null &&
    row.seek_sha !== null &&
    hashLogTail(current.path, row.seek_comp) === row.seek_sha;
  const from: SeekPoint | undefined =
    grown && row && row.seek_line !== null && row.seek_dec !== null && row.seek_comp !== null
      ? { line: row.seek_line, dec: row.seek_dec, comp: row.seek_comp }
      : undefined;
  const skipTo = from && row ? row.text_lines : 0;
  let cid = row?.cid ?? null;
  let first = true;
  let point: SeekPoint | null = from ?? null;
  let indexedTo = skipTo;
  let badLines = from && row ? row.bad_lines : 0;
  let textError: string | null = null;
  let linesRead = 0;
  const pending: Pending[] = [];
  const usage = new UsageBatch();
  // Decompressed bytes of the log's complete lines (the storage report's decompressed size).
  let decEnd = from?.dec ?? 0;

  const flush = (final: boolean) => {
    db.transaction(() => {
      if (first && from && row) {
        // Another process (the CLI beside the server) may have indexed this chat since it was read: leave it to it.
        const now = db.prepare("SELECT indexed_at FROM chats WHERE cid = ?").pluck().get(row.cid);
        if (now !== row.indexed_at) throw new ChatMovedOn();
      }
      const textState = {
        log_name: current?.name ?? null,
        log_ino: st?.ino ?? null,
        // Until the last flush the row says "indexed up to the seek point", so an interrupted refresh resumes there.
        log_size: final ? (st?.size ?? null) : (point?.comp ?? 0),
        log_mtime: final ? (st?.mtimeMs ?? null) : 0,
        text_lines: indexedTo,
        seek_line: point?.line ?? null,
        seek_dec: point?.dec ?? null,
        seek_comp: point?.comp ?? null,
        log_dec: current ? decEnd : null,
        seek_sha: current && point ? hashLogTail(current.path, point.comp) : null,
        text_error: textError,
        bad_lines: badLines,
      };
      const result = upsert.get({
        ...base,
        ...textState,
        fingerprint: final ? seen.fingerprint : "",
        problems: problemCount(summary, textError, badLines),
      }) as { cid: number };
      cid = result.cid;
      const lo = cid * ENTRY_SPAN;
      if (first && !from) {
        deleteLines.run(lo, lo + ENTRY_SPAN);
        deleteUsage(db, cid);
      }
      first = false;
      let next = ((lastEntry.get(lo, lo + ENTRY_SPAN) as { id: number | null }).id ?? lo - 1) + 1;
      for (const p of pending) {
        // A chat with more entries than its span keeps the first ones searchable (16 million entries).
        if (next >= lo + ENTRY_SPAN) break;
        insertLine.run(next++, cid, p.line, p.role, p.ts, p.text);
      }
      pending.length = 0;
      usage.write(db, cid);
    })();
  };

  if (current) {
    const splitter = new LineSplitter(from?.line ?? 0, from?.dec ?? 0);
    const onLine = (n: number, _offset: number, bytes: Buffer, length: number) => {
      linesRead++;
      decEnd = splitter.lineStart;
      if (n <= skipTo) return true;
      const raw = bytes.toString("utf8");
      // A line over the line limit comes as its head: its text is searchable, it is not parsed.
      const json = length > bytes.length ? null : parseObject(raw);
      if (!json && length === bytes.length) badLines++;
      usage.add(json, current.format);
      for (const entry of extractText(json, raw)) pending.push({ line: n, ...entry });
      indexedTo = n;
      return true;
    };
    try {
      for await (const item of streamLog(current.path, { compressed: current.compressed, from })) {
        if (item.type === "end") {
          if (!item.cut && splitter.atLineStart)
            point = {
              line: splitter.lines,
              dec: splitter.offset,
              comp: current.compressed ? item.completeEnd : splitter.offset,
            };
          break;
        }
        if (current.compressed && item.comp !== null && splitter.atLineStart)
          point = { line: splitter.lines, dec: item.dec, comp: item.comp };
        splitter.push(item.data, onLine);
        if (!current.compressed && splitter.lines > 0)
          point = { line: splitter.lines, dec: splitter.lineStart, comp: splitter.lineStart };
        if (pending.length >= FLUSH_ROWS && point && point.line <= indexedTo) flush(false);
      }
    } catch (error) {
      // A log that cannot be decoded past some point keeps what was read; anything else (the index) is not ours to hide.
      if (!isOdaError(error)) throw error;
      textError = error.message;
    }
  }
  flush(true);
  return { mode: from ? "append" : "full", lines: linesRead };
}

/** Thrown inside a chat's first write when another process indexed the chat meanwhile. */
class ChatMovedOn extends Error {}

const tick = () => new Promise<void>((done) => setImmediate(done));

/**
 * Brings the index up to date with the log folder. A damaged index file is set
 * aside and the refresh starts again on a new one.
 */
export async function refreshIndex(handle: IndexHandle, options: RefreshOptions = {}): Promise<RefreshResult> {
  const started = performance.now();
  const compress = options.compress ?? true;
  const result: RefreshResult = {
    chats: 0,
    added: 0,
    changed: 0,
    removed: 0,
    appended: 0,
    reindexed: 0,
    linesRead: 0,
    ms: 0,
    setAside: handle.setAside,
  };
  let h = handle;
  for (let attempt = 0; ; attempt++) {
    try {
      await refreshOnce(h, compress, options, result);
      break;
    } catch (error) {
      if (!isCorruption(error) || attempt > 0) throw error;
      h = rebuildIndex(h, (error as Error).message);
      result.setAside = h.setAside;
      Object.assign(result, { added: 0, changed: 0, removed: 0, appended: 0, reindexed: 0, linesRead: 0 });
    }
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}

async function refreshOnce(
  handle: IndexHandle,
  compress: boolean,
  options: RefreshOptions,
  result: RefreshResult,
): Promise<void> {
  const db = handle.db;
  // Every chat was judged against the folder's form (a log of the other form is refused): a change of
  // form makes every summary out of date though no file changed, so every chat is summarised again.
  if (readMeta(db, "compress") !== String(compress)) db.prepare("UPDATE chats SET fingerprint = ''").run();
  const changes = await scanChanges(db, handle.logDir);
  result.chats = changes.total;
  const dropChat = db.transaction((cid: number) => {
    db.prepare("DELETE FROM lines WHERE id >= ? AND id < ?").run(cid * ENTRY_SPAN, (cid + 1) * ENTRY_SPAN);
    db.prepare("DELETE FROM chats WHERE cid = ?").run(cid);
    deleteUsage(db, cid);
  });
  for (const row of changes.gone) dropChat(row.cid);
  result.removed = changes.gone.length;
  const total = changes.changed.length;
  options.onProgress?.(0, total);
  let done = 0;
  for (const { seen, row } of changes.changed) {
    if (options.signal?.aborted) break;
    if (row) result.changed++;
    else result.added++;
    try {
      const r = await refreshChat(db, seen, row ? readIndexedChat(db, row.cid) : null, compress);
      if (r.mode === "append") result.appended++;
      if (r.mode === "full") result.reindexed++;
      result.linesRead += r.lines;
    } catch (error) {
      if (isCorruption(error)) throw error;
      if (error instanceof ChatMovedOn) {
        done++;
        options.onProgress?.(done, total);
        continue;
      }
      // A chat folder removed or replaced while it was read: the next refresh sees it as it is then.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    done++;
    options.onProgress?.(done, total);
    await tick();
  }
  writeMeta(db, "folderProblems", JSON.stringify(changes.problems));
  writeMeta(db, "compress", String(compress));
  if (!options.signal?.aborted) writeMeta(db, "refreshedAt", new Date().toISOString());
}
