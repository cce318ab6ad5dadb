import { availableParallelism } from "node:os";
import { isSystemError, systemErrorPath, systemErrorSentence } from "../fs/system-error";
import { ChatMovedOn, ChatWrite } from "./chat-refresh";
import { type Db, type IndexHandle, isCorruption, readMeta, rebuildIndex, writeMeta } from "./db";
import { deferIndexes, restoreIndexes } from "./deferred-indexes";
import type { ReadMessage, ReadTask } from "./read-messages";
import { readChats, type TaskList } from "./read-pool";
import { type ChangedChat, type FolderChanges, readIndexedChat, scanChanges } from "./scan";
import { TextCodec } from "./text-codec";
import { deleteEntries, readDictionary, storeDictionary } from "./texts";
import { deleteUsage } from "./usage";

/**
 * The incremental refresh: only chats whose files changed are re-read; a log
 * that only grew (same file, bigger, the bytes before the last indexed seek
 * point unchanged) has only its new lines indexed; chats that are gone are
 * dropped. A large refresh reads chats on reader threads while this thread
 * only writes (`read-pool.ts`); a small one reads them here, yielding to the
 * event loop between chats. Chats are written in
 * transactions of about 8 MiB of text each (one per chat cost more than the
 * inserts; `BATCH_CHARS`), and a large refresh turns FTS5's merging off until its end, then
 * merges the index once; a first build also makes the chats' secondary indexes once at its end
 * (`deferred-indexes.ts`).
 */

/** Options for `refreshIndex`. */
export interface RefreshOptions {
  /** The folder's form (`sessions.compress`, default true). */
  compress?: boolean;
  /** Called with chats done and to do (the changed ones). */
  onProgress?: (done: number, total: number) => void;
  /** Stops between chats when aborted (what was done stays). */
  signal?: AbortSignal;
  /**
   * Reader threads (0: read in this thread). By default a refresh of at least
   * `THREADS_FROM_CHATS` chats or `THREADS_FROM_BYTES` of logs uses one per
   * core, at most `MAX_THREADS`.
   */
  threads?: number;
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
  /** UTF-8 bytes of the text indexed. */
  textBytes: number;
  /** Reader threads the chats were read on (0: in the refresh's own thread). */
  threads: number;
  ms: number;
  /** Set when the index file was damaged and set aside: where it went and why. */
  setAside: { path: string; reason: string } | null;
  /**
   * The files and folders the system would not give in this refresh (no permission, removed while read, an
   * I/O error, …), one sentence each: what they hold is left out of the index, the rest is indexed.
   */
  unreadable: string[];
}

/** A refresh of at least this many chats, and a fifth of the folder, defers FTS5's merges to its end. */
const BULK_CHATS = 1000;
const DEFAULT_AUTOMERGE = 4;
const DEFAULT_HASH_BYTES = 1024 * 1024;
/**
 * A write transaction is committed once it holds about this much text (UTF-16 units, plus a row's worth per
 * message): a commit's cost (the WAL's sync, FTS5 flushing its pending postings) is then paid per size
 * written, not per second, so a slow or loaded machine does not commit more often for the same build.
 */
const BATCH_CHARS = 8 * 1024 * 1024;
const MESSAGE_CHARS = 512;
/**
 * And at the latest after this long: other writers (a CLI beside the server) wait for the lock up to their
 * busy timeout (5 s, `db.ts`), so no transaction stays open near that.
 */
const BATCH_MAX_MS = 2000;
/** Below these (changed chats, bytes of their files), starting a reader thread costs more than it saves. */
const THREADS_FROM_CHATS = 200;
const THREADS_FROM_BYTES = 16 * 1024 * 1024;
const MAX_THREADS = 3;
/**
 * FTS5 keeps this many bytes of new postings in memory before writing a
 * segment (its default is 1 MiB): fewer, larger segments leave less to merge.
 * Each commit writes what is pending anyway, so memory stays bounded by it.
 */
const BULK_HASH_BYTES = 32 * 1024 * 1024;

function defaultThreads(changes: FolderChanges): number {
  if (changes.changed.length < THREADS_FROM_CHATS && changes.knownBytes < THREADS_FROM_BYTES) return 0;
  // One per core, not per core but the writer's: profiled on 2 cores (10,000 chats), the writer was idle 60% of the
  // time waiting for its one reader, which was the bottleneck; a second reader overlaps it.
  return Math.max(1, Math.min(MAX_THREADS, availableParallelism()));
}

function setFts(db: Db, key: "automerge" | "hashsize", value: number): void {
  db.prepare("INSERT INTO lines_fts(lines_fts, rank) VALUES (?, CAST(? AS INTEGER))").run(key, value);
}

/** One write transaction over several chats, committed by the size written (`BATCH_CHARS`), or after `BATCH_MAX_MS`. */
class WriteBatch {
  private since = 0;
  private chars = 0;
  /** Transactions committed (the refresh's record). */
  commits = 0;
  constructor(private db: Db) {}
  begin(): void {
    if (this.db.inTransaction) return;
    this.db.exec("BEGIN IMMEDIATE");
    this.since = performance.now();
    this.chars = 0;
  }
  /** Counts what a message wrote into the open transaction. */
  wrote(message: ReadMessage): void {
    this.chars += MESSAGE_CHARS;
    if (message.kind === "batch") for (const text of message.texts) this.chars += text.length;
  }
  due(): boolean {
    return this.db.inTransaction && (this.chars >= BATCH_CHARS || performance.now() - this.since >= BATCH_MAX_MS);
  }
  commit(): void {
    if (!this.db.inTransaction) return;
    this.db.exec("COMMIT");
    this.commits++;
  }
  /** Drops what the open transaction wrote: a chat's write failed half-way. */
  rollback(): void {
    try {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
    } catch {
      // A damaged file may refuse even this; the error that stopped the refresh is the one to report.
    }
  }
}

/** The counts a refresh adds up, at zero: at the start and again when a damaged index is rebuilt. */
function zeroCounts() {
  return {
    added: 0,
    changed: 0,
    removed: 0,
    appended: 0,
    reindexed: 0,
    linesRead: 0,
    textBytes: 0,
    threads: 0,
    unreadable: [] as string[],
  };
}

/**
 * Brings the index up to date with the log folder. A damaged index file is set
 * aside and the refresh starts again on a new one.
 */
export async function refreshIndex(handle: IndexHandle, options: RefreshOptions = {}): Promise<RefreshResult> {
  const started = performance.now();
  const compress = options.compress ?? true;
  const result: RefreshResult = { chats: 0, ...zeroCounts(), ms: 0, setAside: handle.setAside };
  let h = handle;
  for (let attempt = 0; ; attempt++) {
    try {
      await refreshOnce(h, compress, options, result);
      break;
    } catch (error) {
      if (!isCorruption(error) || attempt > 0) throw error;
      h = rebuildIndex(h, (error as Error).message);
      result.setAside = h.setAside;
      Object.assign(result, zeroCounts());
    }
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}

/** The index's record of each chat's files left out (`unreadableChats`); an unreadable record is an empty one. */
function readUnreadable(db: Db): Map<string, string[]> {
  try {
    const record: unknown = JSON.parse(readMeta(db, "unreadableChats") ?? "{}");
    if (record && typeof record === "object") return new Map(Object.entries(record as Record<string, string[]>));
  } catch {
    // Written by this module only; a damaged one is rebuilt as chats are read again.
  }
  return new Map();
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
  for (const p of changes.problems) if (p.kind === "system") result.unreadable.push(p.message);
  const dropChat = db.transaction((cid: number) => {
    deleteEntries(db, cid);
    db.prepare("DELETE FROM chats WHERE cid = ?").run(cid);
    deleteUsage(db, cid);
  });
  for (const row of changes.gone) dropChat(row.cid);
  // Each indexed chat's files the system would not give, kept between refreshes: the totals count every chat
  // still left out, also one this refresh did not read again because nothing of it changed.
  const unreadable = readUnreadable(db);
  for (const row of changes.gone) unreadable.delete(row.id);
  result.removed = changes.gone.length;
  const total = changes.changed.length;
  options.onProgress?.(0, total);
  const bulk = total >= BULK_CHATS && total * 5 >= changes.total;
  // A first build's secondary indexes of the chats and usage rows made once at its end, not row by row. Only a
  // first build's: nothing reads an index not yet built, while a built one serves the chat list's orders.
  const deferred = bulk && readMeta(db, "refreshedAt") === null;
  if (bulk) {
    setFts(db, "automerge", 0);
    setFts(db, "hashsize", BULK_HASH_BYTES);
  }
  if (deferred) deferIndexes(db);
  const batch = new WriteBatch(db);
  let done = 0;
  try {
    await readChanged();
  } catch (error) {
    batch.rollback();
    try {
      if (deferred) restoreIndexes(db);
    } catch {
      // A damaged file: the error that stopped the refresh is the one to report (its rebuild starts anew).
    }
    throw error;
  }
  batch.commit();
  if (deferred) restoreIndexes(db);
  if (bulk) {
    setFts(db, "automerge", DEFAULT_AUTOMERGE);
    setFts(db, "hashsize", DEFAULT_HASH_BYTES);
    if (!options.signal?.aborted) db.prepare("INSERT INTO lines_fts(lines_fts) VALUES ('optimize')").run();
    // The merged segments' pages (a twentieth of the file or more) go back to the disk.
    db.pragma("incremental_vacuum");
  }
  writeMeta(db, "folderProblems", JSON.stringify(changes.problems));
  writeMeta(db, "unreadableChats", JSON.stringify(Object.fromEntries(unreadable)));
  for (const sentences of unreadable.values()) result.unreadable.push(...sentences);
  writeMeta(db, "compress", String(compress));
  if (!options.signal?.aborted) writeMeta(db, "refreshedAt", new Date().toISOString());

  async function readChanged(): Promise<void> {
    // Each chat's task (its location, index row and writer) made when it is handed to a reader, dropped when done.
    const writes = new Map<number, ChatWrite | null>();
    const inFlight = new Map<number, ChangedChat>();
    const tasks: TaskList = {
      length: changes.changed.length,
      at(i: number): ReadTask {
        const change = changes.changed.at(i);
        inFlight.set(i, change);
        const indexed = change.row ? readIndexedChat(db, change.row.cid) : null;
        writes.set(i, new ChatWrite(db, indexed));
        return { seen: change.seen, row: indexed, compress, logDir: handle.logDir };
      },
    };
    // The index's dictionary for small text blocks, or one made from the first entries this refresh writes.
    const codec = new TextCodec(readDictionary(db));
    const threads = options.threads ?? defaultThreads(changes);
    result.threads = await readChats(
      tasks,
      threads,
      {
        stopped: () => !!options.signal?.aborted,
        apply: (i, message) => {
          const write = writes.get(i);
          if (!write) return;
          batch.begin();
          try {
            write.apply(message);
          } catch (error) {
            if (!(error instanceof ChatMovedOn)) throw error;
            writes.set(i, null);
          }
          batch.wrote(message);
          const made = message.kind === "batch" ? codec.add(message.texts) : null;
          // In the same transaction as the blocks that follow: none is ever stored without it.
          if (made) storeDictionary(db, made);
          if (batch.due()) batch.commit();
        },
        done: (i, error, found) => {
          // A chat folder removed or replaced while it was read, or one the system would not give: the next
          // refresh sees it as it is then; the others go on.
          if (error && !isSystemError(error)) throw error;
          const change = inFlight.get(i);
          inFlight.delete(i);
          const loc = change?.seen.loc;
          const sentences = [...(found ?? [])];
          if (error && loc)
            sentences.push(systemErrorSentence(error as NodeJS.ErrnoException, systemErrorPath(error, loc.dir)));
          if (loc && sentences.length) unreadable.set(loc.id, sentences);
          else if (loc) unreadable.delete(loc.id);
          if (change?.row) result.changed++;
          else result.added++;
          const r = writes.get(i)?.done;
          writes.delete(i);
          if (r && !error) {
            if (r.mode === "append") result.appended++;
            if (r.mode === "full") result.reindexed++;
            result.linesRead += r.lines;
            result.textBytes += r.textBytes;
          }
          options.onProgress?.(++done, total);
        },
      },
      codec,
    );
  }
}
