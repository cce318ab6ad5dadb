import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type IndexedChatList, listChatsFromIndex, startIndexRefresh } from "@/lib/index";
import { type ChatSummary, type Problem, parseLogName, readCompressSetting, splitRawLog } from "@/lib/sessions";
import { refreshInWorker } from "@/server/index-worker";
import { streamInWorker } from "@/server/log-worker";
import { serverRoots } from "@/server/roots";

/**
 * The chat list's one data source: the search index when it is fresh (no log
 * opened), else the log folder walked through `lib/sessions` while the index
 * refreshes in the background. The route and the client read `ChatListBatch`.
 */

/** One problem as the list shows it: the exact sentence and the raw logs it concerns. */
export interface ChatProblem {
  kind: Problem["kind"];
  /** The exact sentence, with its `raw log:` note when it has one. */
  message: string;
  /** The sentence without its `raw log:` note (shown on a line of its own). */
  sentence: string;
  /** The log files (or folders) the problem is about, each shown as `raw log: <path>`. */
  paths: string[];
  /** The chat id, for a chat stored in two places (its page offers the fix). */
  chat?: string;
}

/** One row of the chat list: plain, serialisable data. */
export interface ChatRow {
  id: string;
  title: string | null;
  folder: string;
  group: string;
  cwd: string | null;
  created: string | null;
  lastActivity: string | null;
  messages: number;
  tokens: number;
  format: number | null;
  compressed: boolean | null;
  generations: string[];
  lock: { state: ChatSummary["lock"]["state"]; pid?: number; host?: string; startedAt?: string; reason: string };
  cached: boolean;
  cacheState: ChatSummary["cacheState"];
  cacheReason: string;
  behindBytes: number;
  problems: ChatProblem[];
}

/** Where the list comes from (first batch only): the index when it is fresh, else the folder. */
export interface ChatListSource {
  /** True when the rows come from the index, which is up to date. */
  fresh: boolean;
  /** The index's own freshness sentence. */
  sentence: string;
}

/** One batch of the streamed list (NDJSON line). */
export interface ChatListBatch {
  rows: ChatRow[];
  /** Folder-level problems (first batch only): names that do not decode, chats stored twice. */
  problems: ChatProblem[];
  done: number;
  total: number;
  /** Set on the first batch when there is an index (an admin state folder). */
  index?: ChatListSource;
}

/** The log folder and its form, or `null` when no log folder is set. */
export function logFolder(): { logDir: string; compress: boolean } | null {
  const roots = serverRoots();
  if (!roots.logs) return null;
  return { logDir: roots.logs, compress: readCompressSetting(roots.home) };
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

/**
 * The chat list from the index, or its freshness and a background refresh
 * started when it is not fresh; `null` without a state folder.
 */
async function readIndex(
  state: string | null,
  logDir: string,
  compress: boolean,
): Promise<{ list: IndexedChatList | null; source: ChatListSource } | null> {
  if (!state) return null;
  try {
    const list = await listChatsFromIndex(state, logDir, { compress });
    if (list.freshness.fresh) return { list, source: { fresh: true, sentence: list.freshness.sentence } };
    // Not awaited: the folder is listed meanwhile; a failed refresh is reported through the index's job.
    void startIndexRefresh(state, logDir, { compress, runner: refreshInWorker }).catch((error: unknown) =>
      console.error("oda-admin: the index refresh could not start:", error),
    );
    return { list: null, source: { fresh: false, sentence: list.freshness.sentence } };
  } catch (error) {
    console.error("oda-admin: the chat list could not read the search index:", error);
    return { list: null, source: { fresh: false, sentence: INDEX_UNUSABLE } };
  }
}

/**
 * Streams the chat list in batches, the first ones before the listing ends:
 * from the index when it is fresh, else from the log folder.
 */
export async function* streamChatList(batchSize = 200): AsyncGenerator<ChatListBatch> {
  const folder = logFolder();
  if (!folder) {
    yield { rows: [], problems: [], done: 0, total: 0 };
    return;
  }
  const index = await readIndex(serverRoots().state, folder.logDir, folder.compress);
  if (index?.list) {
    const { chats, problems } = index.list;
    const total = chats.length;
    let first = true;
    for (let i = 0; i === 0 || i < total; i += batchSize) {
      const batch = chats.slice(i, i + batchSize);
      yield {
        rows: batch.map((c) => toRow(c)),
        problems: first ? problems.map(toChatProblem) : [],
        done: i + batch.length,
        total,
        ...(first ? { index: index.source } : {}),
      };
      first = false;
    }
    return;
  }
  let first = true;
  // Chats without a usable checkpoint are read from their logs: on the decode worker, never on this thread.
  for await (const batch of streamInWorker("listChats", folder.logDir, folder.compress, batchSize)) {
    yield {
      rows: batch.chats.map((c) => toRow(c)),
      problems: batch.problems.map(toChatProblem),
      done: batch.done,
      total: batch.total,
      ...(first && index ? { index: index.source } : {}),
    };
    first = false;
  }
}
