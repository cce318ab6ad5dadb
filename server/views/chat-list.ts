import "server-only";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type ChatSummary, type Problem, parseLogName, splitRawLog } from "@/lib/chats";
import type { ChatListBatch, ChatListSource, ChatProblem, ChatRow, ChatSort } from "@/lib/chats/views";
import { noteCounts } from "@/lib/notes";
import { type IndexedChatRows, readChatsFromIndex, startIndexRefresh } from "@/lib/search-index";
import type { SourceContext } from "@/server/source/context";
import { folderCheck } from "@/server/workers/folder-check";
import { refreshInWorker } from "@/server/workers/index-worker";
import { streamInWorker } from "@/server/workers/log-worker";
import { SentRows } from "./sent-rows";

export type { ChatListBatch, ChatListSource, ChatProblem, ChatRow };

/**
 * The chat list's one data source: the search index when it is fresh (no log
 * opened), else the log folder walked through `lib/chats` while the index
 * refreshes in the background. The route and the client read `ChatListBatch`.
 */

/** What the list says while it shows the index's rows and checks them against the log folder. */
export const CHECKING_INDEX =
  "Showing the chats as the search index has them while they are checked against the log folder.";

/** The source's log folder and its form, or `null` when it has no log folder. */
export function logFolder(ctx: SourceContext): { logDir: string; compress: boolean } | null {
  return ctx.log.dir ? { logDir: ctx.log.dir, compress: ctx.log.compress } : null;
}

/** The log files inside a chat folder (for `raw log:` notes). */
function logsIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => parseLogName(n))
      .map((n) => join(dir, n));
  } catch {
    return [dir];
  }
}

/** A problem as the list shows it: a chat stored twice names the log files of both copies. */
export function toChatProblem(p: Problem): ChatProblem {
  const { sentence, rawLog } = splitRawLog(p);
  const paths = rawLog ? [rawLog] : p.kind === "duplicate" ? p.paths.flatMap(logsIn) : p.paths;
  return { kind: p.kind, message: p.message, sentence, paths, ...(p.chat === undefined ? {} : { chat: p.chat }) };
}

/** A chat summary as a list row; its problems are the lib's (a discarded checkpoint and a stale lock included). */
export function toRow(chat: ChatSummary): ChatRow {
  const current = chat.generations.find((g) => g.current);
  const problems = chat.problems.map(toChatProblem);
  return {
    id: chat.id,
    title: chat.title,
    folder: chat.folder,
    group: chat.group,
    cwd: chat.cwd,
    created: chat.created,
    firstActivity: chat.firstActivity,
    lastActivity: chat.lastActivity,
    messages: chat.messages,
    tokens: chat.inputTokens + chat.outputTokens,
    format: chat.format,
    compressed: current ? current.compressed : null,
    generations: chat.generations.map((g) => g.name),
    lock: {
      state: chat.lock.state,
      pid: chat.lock.pid,
      host: chat.lock.host,
      startedAt: chat.lock.startedAt,
      reason: chat.lock.reason,
    },
    cached: chat.cached,
    cacheState: chat.cacheState,
    cacheReason: chat.cacheReason,
    behindBytes: chat.behindBytes,
    problems,
  };
}

/** The sentence when the index cannot be opened or read (the reason goes to the server's log). */
const INDEX_UNUSABLE = "The search index cannot be used.";

/** The index's rows (with their check running), or why the folder is listed instead; `null` without a state folder. */
function readIndex(
  state: string | null,
  logDir: string,
  compress: boolean,
  order: ChatSort | undefined,
  left: AbortSignal,
  firstPage: number,
): { rows: IndexedChatRows | null; source: ChatListSource } | null {
  if (!state) return null;
  try {
    // The folder check runs on the decode worker: on 100,000 chats it would hold this event loop for seconds.
    // It stops when the list's stream ends before its verdict (`left`: the client went away) and no other caller waits.
    const check = () => folderCheck(left, state, logDir);
    const rows = readChatsFromIndex(state, logDir, {
      compress,
      check,
      firstPage,
      // A paged listing (no first page) sends no groups: its windows carry theirs.
      groups: firstPage > 0,
      ...(order ? { order } : {}),
    });
    if (rows.built) return { rows, source: { fresh: false, checking: true, sentence: CHECKING_INDEX } };
    startRefresh(state, logDir, compress);
    return { rows: null, source: { fresh: false, sentence: "The search index has not been built yet." } };
  } catch (error) {
    console.error("oda-admin: the chat list could not read the search index:", error);
    return { rows: null, source: { fresh: false, sentence: INDEX_UNUSABLE } };
  }
}

/** Starts a background refresh of the index (not awaited: a failure is reported through the index's job). */
function startRefresh(state: string, logDir: string, compress: boolean): void {
  void startIndexRefresh(state, logDir, { compress, runner: refreshInWorker }).catch((error: unknown) =>
    console.error("oda-admin: the index refresh could not start:", error),
  );
}

/** The row with its count of marks and notes, when it has any. */
export function withNotes(row: ChatRow, notes: Map<string, number>): ChatRow {
  const n = notes.get(row.id);
  return n ? { ...row, notes: n } : row;
}

/** The folder listed on the decode worker (chats without a usable checkpoint are read from their logs there). */
async function* folderBatches(logDir: string, compress: boolean, batchSize: number, notes: Map<string, number>) {
  for await (const batch of streamInWorker("listChats", logDir, compress, batchSize)) {
    yield {
      rows: batch.chats.map((c) => withNotes(toRow(c), notes)),
      problems: batch.problems.map(toChatProblem),
      done: batch.done,
      total: batch.total,
    };
  }
}

/**
 * The index's batches after the first: larger, since each one is a page read
 * and a render in the page; 100,000 chats in 200s made 500 of each.
 */
export function laterBatchSize(first: number): number {
  return Math.max(first, 2000);
}

/**
 * The rows of a later batch are made this many at a time, with a turn of the event loop between (a
 * `setImmediate`): a batch of 2,000 was one turn of about 0.7 s on a loaded machine, and a page asked for
 * meanwhile (Home) waited for one batch at each of its many turns.
 */
export const ROWS_A_TURN = 250;

/** Resolves after the I/O and timers already due. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How `streamChatList` streams. */
export interface ListStreamOptions {
  /** Rows in the first batch (the index's later ones are `laterBatchSize`); 200 unless given. */
  batch?: number;
  /** The table's sort: the index's rows come in it. */
  order?: ChatSort;
  /** Rows made a turn of the event loop (`ROWS_A_TURN`). */
  rowsATurn?: number;
  /** Aborted when the client went away. */
  gone?: AbortSignal;
  /** Over a built index, send no rows: the page reads them a window at a time (`ChatListBatch.paged`). */
  paged?: boolean;
}

/**
 * Streams the chat list in batches, the first ones before the listing ends.
 * With a built index its rows go out at once, marked as being checked; then
 * the folder is compared with the index (names, sizes, mtimes). When nothing
 * changed, a last batch says the rows are current; otherwise a refresh of the
 * index starts in the background and the folder is listed, sending only the
 * rows that differ from the index's, the ones that are gone, and the verdict.
 * Without an index the folder is listed as it is read.
 *
 * `order` is the table's sort: the index's rows come in that order, read from
 * its index (`lib/search-index/list-order.ts`), and the first batch says so (`order`);
 * rows from the folder come in its own order and the page sorts them.
 *
 * `paged`: over a built index the stream sends no rows, only the index's verdict (the page reads windows of
 * rows meanwhile); when the folder changed, it then sends the folder's rows in full.
 */
export async function* streamChatList(
  ctx: SourceContext,
  { batch = 200, order, rowsATurn = ROWS_A_TURN, gone, paged = false }: ListStreamOptions = {},
): AsyncGenerator<ChatListBatch> {
  // The client went away (`gone`, from `ndjsonRead`: this generator, waiting for the verdict, is returned only
  // at its next yield) or the stream was ended early: the folder check stops unless another caller waits (issue 28).
  const left = new AbortController();
  const leave = () => left.abort();
  gone?.addEventListener("abort", leave, { once: true });
  try {
    yield* listBatches(ctx, { batch, order, rowsATurn, paged }, left.signal);
  } finally {
    gone?.removeEventListener("abort", leave);
    left.abort();
  }
}

async function* listBatches(
  ctx: SourceContext,
  {
    batch: batchSize,
    order,
    rowsATurn,
    paged,
  }: Required<Omit<ListStreamOptions, "gone" | "order">> & Pick<ListStreamOptions, "order">,
  left: AbortSignal,
): AsyncGenerator<ChatListBatch> {
  const folder = logFolder(ctx);
  if (!folder) {
    yield { rows: [], problems: [], done: 0, total: 0 };
    return;
  }
  const { logDir, compress } = folder;
  const state = ctx.roots.state;
  // Each chat's count of marks and notes (issue 29), shown as a marker on its row.
  const notes = state ? noteCounts(state) : new Map<string, number>();
  const index = readIndex(state, logDir, compress, order, left, paged ? 0 : batchSize);
  if (!index?.rows) {
    let first = true;
    for await (const batch of folderBatches(logDir, compress, batchSize, notes)) {
      yield { ...batch, ...(first && index ? { index: index.source } : {}) };
      first = false;
    }
    return;
  }
  if (paged) {
    yield* pagedBatches(index.rows, index.source, { state, logDir, compress, batchSize, notes, left });
    return;
  }
  const { count: total, problems } = index.rows;
  const sent = new SentRows();
  const folderProblems = problems.map(toChatProblem);
  const groups = index.rows.groups;
  for (let i = 0, size = batchSize; i === 0 || i < total; i += size, size = laterBatchSize(batchSize)) {
    const rows: ChatRow[] = [];
    const end = Math.min(i + size, total);
    for (let at = i; at < end; at += rowsATurn) {
      // The first slice of a batch follows the stream's own turn (`ndjsonRead`); the others get one here.
      // Slices are read in turn, so each is a seek from where the last one ended (`IndexRows.at`).
      if (at > i) await turn();
      for (const c of index.rows.chatsAt(at, Math.min(at + rowsATurn, end))) rows.push(withNotes(toRow(c), notes));
    }
    for (const row of rows) sent.add(row);
    yield {
      rows,
      problems: i === 0 ? folderProblems : [],
      done: i + rows.length,
      total,
      ...(i === 0 ? { index: index.source, groups, order: index.rows.order } : {}),
    };
  }
  const freshness = await index.rows.freshness.catch((error: unknown) => {
    if (!left.aborted) console.error("oda-admin: the chat list could not check the search index:", error);
    return { fresh: false, sentence: INDEX_UNUSABLE };
  });
  // Nobody reads on (the check was stopped for that): no refresh is started for a list nobody sees.
  if (left.aborted) return;
  if (freshness.fresh) {
    yield {
      rows: [],
      problems: [],
      done: total,
      total,
      index: { fresh: true, sentence: freshness.sentence },
      update: { removed: [], replaceProblems: false },
    };
    return;
  }
  if (state) startRefresh(state, logDir, compress);
  const seen = new Set<string>();
  let latestProblems: ChatProblem[] = [];
  let done = 0;
  let listed = total;
  for await (const batch of folderBatches(logDir, compress, batchSize, notes)) {
    const changed = batch.rows.filter((row) => {
      seen.add(row.id);
      return sent.differs(row);
    });
    latestProblems = latestProblems.concat(batch.problems);
    done = batch.done;
    listed = batch.total;
    if (changed.length)
      yield { rows: changed, problems: [], done, total: listed, update: { removed: [], replaceProblems: false } };
  }
  const removed = [...sent.ids()].filter((id) => !seen.has(id));
  const replaceProblems = JSON.stringify(latestProblems) !== JSON.stringify(folderProblems);
  yield {
    rows: [],
    problems: replaceProblems ? latestProblems : [],
    done,
    total: listed,
    index: { fresh: false, sentence: freshness.sentence },
    update: { removed, replaceProblems },
  };
}

/** Names each paged listing, so the windows read for it are told from another listing's (`chats.window`). */
let listings = 0;

/** How many paged listings this server started: a window read after a new one judges the locks again. */
export function listingsStarted(): number {
  return listings;
}

/**
 * A paged listing over a built index: the index's folder problems and its verdict, no rows (the page reads
 * them through `chats.window`). When the folder changed, a refresh of the index starts and the folder is
 * listed in full after a batch that says so (`paged: null`); the page keeps the index's windows on screen
 * until the stream ends, then shows the folder's rows.
 */
async function* pagedBatches(
  rows: IndexedChatRows,
  source: ChatListSource,
  at: {
    state: string | null;
    logDir: string;
    compress: boolean;
    batchSize: number;
    notes: Map<string, number>;
    left: AbortSignal;
  },
): AsyncGenerator<ChatListBatch> {
  const total = rows.count;
  listings += 1;
  yield {
    rows: [],
    problems: rows.problems.map(toChatProblem),
    done: 0,
    total,
    index: source,
    paged: { view: `${process.pid}.${listings}` },
  };
  const freshness = await rows.freshness.catch((error: unknown) => {
    if (!at.left.aborted) console.error("oda-admin: the chat list could not check the search index:", error);
    return { fresh: false, sentence: INDEX_UNUSABLE };
  });
  if (at.left.aborted) return;
  if (freshness.fresh) {
    yield { rows: [], problems: [], done: total, total, index: { fresh: true, sentence: freshness.sentence } };
    return;
  }
  if (at.state) startRefresh(at.state, at.logDir, at.compress);
  yield { rows: [], problems: [], done: 0, total, paged: null };
  let done = 0;
  let listed = total;
  for await (const batch of folderBatches(at.logDir, at.compress, at.batchSize, at.notes)) {
    done = batch.done;
    listed = batch.total;
    yield batch;
  }
  yield { rows: [], problems: [], done, total: listed, index: { fresh: false, sentence: freshness.sentence } };
}
