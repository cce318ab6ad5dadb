/**
 * `lib/search-index`: a persistent search index of the log folder, in
 * `<admin state>/index.sqlite` (SQLite through better-sqlite3, FTS5). It is a
 * cache: built from `lib/chats`, refreshed incrementally, set aside and
 * rebuilt when damaged, never the source of truth.
 *
 * - `refreshIndex(state, logDir, {compress, onProgress})`: brings it up to date
 *   (only changed chats are re-read; a grown log has only its new lines read).
 * - `startIndexRefresh(state, logDir)`: the same in the background of a server,
 *   one job per index, with `indexStatus` reporting its progress.
 * - `searchChats(state, logDir, {query, cwd, since, until, role, problems})`:
 *   FTS5 search grouped by chat, with marked snippets and line numbers.
 * - `listChatsFromIndex(state, logDir, {compress})`: the chat list from the
 *   index, with its freshness and each lock judged again now.
 */

import "server-only";
import type { ChatSummary } from "../chats";
import type { ChatSort } from "../chats/views";
import {
  type ChatFacts,
  chatsByCid,
  type IndexedFacts,
  readChatFacts,
  readWholeHead,
  readWholePlaces,
  type WholeHead,
} from "./chat-facts";
import type { IndexHandle } from "./db";
import { openIndex, readMeta } from "./db";
import { type RefreshRunner, startRefresh } from "./jobs";
import { countProblemChats as countFrom, type ProblemChatCount } from "./problem-count";
import { type RefreshOptions, type RefreshResult, refreshIndex as refresh } from "./refresh";
import { listIndexedFolders, type SearchOptions, type SearchResult, searchIndex } from "./search";
import {
  checkIndexFreshness as checkFreshnessOf,
  type Freshness,
  type IndexedChatList,
  type IndexedChatRows,
  type IndexStatus,
  type ListFromIndexOptions,
  listChatsFromIndex as listFrom,
  readIndexStatus,
  readChatsFromIndex as readRowsFrom,
} from "./status";

export { closeAllIndexes, INDEX_FILE, type IndexHandle, indexPath, openIndex, SCHEMA_VERSION } from "./db";
export { extractText, type LineText, SEARCH_ROLES, type SearchRole } from "./extract";
export type { RefreshJob, RefreshRunner } from "./jobs";
export type { ProblemChatCount } from "./problem-count";
export { checkQuery, MAX_QUERY_CHARS } from "./query-check";
export type { RefreshOptions, RefreshResult } from "./refresh";
export { CHECK_CANCELLED } from "./scan";
export type { SearchFilters, SearchGroup, SearchHit, SearchOptions, SearchResult, SnippetPart } from "./search";
export type { Freshness, IndexedChatList, IndexedChatRows, IndexStatus, ListFromIndexOptions } from "./status";
export type { ChatFacts, IndexedFacts, WholeHead };

/** Brings the index of `logDir` in the state folder up to date. */
export async function refreshIndex(
  state: string | null,
  logDir: string,
  options: RefreshOptions = {},
): Promise<RefreshResult> {
  return refresh(openIndex(state, logDir), options);
}

/**
 * Starts a background refresh (or joins the running one); returns its state at
 * once. `runner` runs it elsewhere (the server's worker thread).
 */
export async function startIndexRefresh(
  state: string | null,
  logDir: string,
  options: { compress?: boolean; runner?: RefreshRunner } = {},
): Promise<{ status: IndexStatus; wait: Promise<RefreshResult> }> {
  const handle = openIndex(state, logDir);
  const { wait } = startRefresh(handle, options);
  return { status: await readIndexStatus(handle), wait };
}

/**
 * The index's size, counts, freshness and refresh progress. `scan`: the folder check run elsewhere (the
 * server's decode worker, `checkIndexFreshness` on its own connection) instead of on this thread.
 */
export function indexStatus(
  state: string | null,
  logDir: string,
  scan?: () => Promise<Freshness>,
): Promise<IndexStatus> {
  return readIndexStatus(openIndex(state, logDir), scan);
}

/** Searches the index as it is (refresh first for the newest lines). */
export function searchChats(state: string | null, logDir: string, options: SearchOptions): Promise<SearchResult> {
  return searchIndex(openIndex(state, logDir).db, options);
}

/** The working folders of the indexed chats. */
export function indexedFolders(state: string | null, logDir: string): string[] {
  return listIndexedFolders(openIndex(state, logDir).db);
}

/**
 * The chat list from the index, in the `ChatSummary` shape `lib/chats`
 * lists, with `freshness` saying whether the folder (or, given `compress`, its
 * form) changed since the last refresh (then show `freshness.sentence` and
 * start a refresh). Locks and their stale-lock problems are judged now.
 */
export function listChatsFromIndex(
  state: string | null,
  logDir: string,
  options: ListFromIndexOptions = {},
): Promise<IndexedChatList> {
  return listFrom(openIndex(state, logDir), options);
}

/**
 * The index's chat rows at once, with their freshness check started but not
 * awaited (`freshness`): the chat list shows the rows, then says whether they
 * held. Throws when the index cannot be opened.
 */
export function readChatsFromIndex(
  state: string | null,
  logDir: string,
  options: ListFromIndexOptions = {},
): IndexedChatRows {
  return readRowsFrom(openIndex(state, logDir), options);
}

/**
 * The folder check of `readChatsFromIndex` on its own (another thread's connection), never reused; it stops
 * with `checkCancelled()`'s error (`CHECK_CANCELLED`) once `cancelled` says nobody waits for it any more.
 */
export function checkIndexFreshness(
  state: string | null,
  logDir: string,
  cancelled?: () => boolean,
): Promise<Freshness> {
  return checkFreshnessOf(openIndex(state, logDir), cancelled);
}

/**
 * How many chats have problems, from the index (no log opened), with the
 * index's freshness against the folder and its form: a caller refreshes and
 * counts again when it is not fresh. Throws when the index cannot be opened.
 */
export function countProblemChats(
  state: string | null,
  logDir: string,
  options: Parameters<typeof countFrom>[1] = {},
): Promise<ProblemChatCount> {
  return countFrom(openIndex(state, logDir), options);
}

/**
 * Every chat's list facts in `order` (`chat-facts.ts`), for the chat list read a window at a time: read in
 * slices with turns of the event loop between them, stopped at a turn once `signal` aborts.
 */
export function readIndexedChatFacts(
  state: string | null,
  logDir: string,
  order: ChatSort,
  signal: AbortSignal | null = null,
): Promise<IndexedFacts> {
  return readChatFacts(openIndex(state, logDir), order, { signal });
}

/** The chat list's counts and groups when no filter is set, from the index's own indexes (`chat-facts.ts`). */
export function readIndexedWholeHead(state: string | null, logDir: string): WholeHead {
  return readWholeHead(openIndex(state, logDir));
}

/** The chats at places `from`–`to` of the list when no filter is set (`groups`: grouped, as the head has them). */
export function readIndexedWholePlaces(
  state: string | null,
  logDir: string,
  window: { order: ChatSort; groups: WholeHead["groups"] | null; from: number; to: number },
): number[] {
  return readWholePlaces(openIndex(state, logDir), window.order, window.groups, window.from, window.to);
}

/** The summaries of the index's chats `cids`, in that order, as the chat list shows them. */
export function readIndexedChats(state: string | null, logDir: string, cids: number[]): ChatSummary[] {
  return chatsByCid(openIndex(state, logDir), cids);
}

/** When the index was last refreshed (`null`: never), read now. */
export function indexRefreshedAt(state: string | null, logDir: string): string | null {
  return readMeta(openIndex(state, logDir).db, "refreshedAt");
}

/** For callers that keep a handle (tests, the bench). */
export function handleOf(state: string | null, logDir: string): IndexHandle {
  return openIndex(state, logDir);
}
