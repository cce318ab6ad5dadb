import { type Db, ENTRY_SPAN } from "./db";
import { readLogTexts } from "./log-texts";
import { checkQuery } from "./query-check";
import { type ChatRow, NEWEST_FIRST, newestChats, withSnapshot } from "./search-cache";
import { type ByChat, type ChatHits, groupRowids } from "./search-group";
import {
  type CompiledFilters,
  compileFilters,
  type FtsTracer,
  parseSnippet,
  QueryRunner,
  type SearchFilters,
  type SnippetPart,
  statement,
} from "./search-query";
import { cutShown, planShown, type ShownEntry, type ShownPlan } from "./snippets";

/**
 * Full-text search over the index with FTS5 syntax: words (all must appear),
 * "phrases", prefix*, NOT, OR, and parentheses. Results are grouped by chat,
 * the most recently active first, each hit with its line number and a snippet
 * whose matched words are marked. The stages: read the query and filters,
 * fetch the first matches (which also counts them, up to a cap), group them by
 * chat (or, for a query matching almost everywhere, probe the newest chats one
 * by one), read the shown chats' rows, and cut the shown hits' snippets.
 */

export type { SearchFilters, SnippetPart } from "./search-query";

/** A search: the query and its filters. */
export interface SearchOptions extends SearchFilters {
  query: string;
  /** Chats to return, the most recently active first (default 20). */
  chats?: number;
  /** Above this many matching entries, chats are probed newest first (default 5,000; tests lower it). */
  walkFrom?: number;
  /** Hits shown per chat (default 3; `count` still counts them all). */
  perChat?: number;
  /** Called with each statement run on the FTS index (the bench replays them on a plain connection). */
  onFtsQuery?: FtsTracer;
}

/** One matching line. */
export interface SearchHit {
  line: number;
  role: string;
  ts: string | null;
  snippet: SnippetPart[];
}

/** The matches of one chat. */
export interface SearchGroup {
  id: string;
  title: string | null;
  cwd: string | null;
  folder: string;
  lastActivity: string | null;
  problems: number;
  /** Matching entries in this chat. */
  count: number;
  hits: SearchHit[];
}

/** A search's answer. */
export interface SearchResult {
  query: string;
  groups: SearchGroup[];
  /** Matching entries in all (when `moreHits`, the number counted before counting stopped). */
  totalHits: number;
  /** True when more entries match than `totalHits` says: counting stopped at `COUNT_CAP`. */
  moreHits: boolean;
  /** Chats with a match; `null` when the query matched so widely that only the newest chats were looked at. */
  totalChats: number | null;
  /** True when more chats match than `groups` holds. */
  moreChats: boolean;
  /** True when more entries matched than were grouped (over 200,000). */
  truncated: boolean;
  ms: number;
}

/** Matching entries counted at most: counting every match of a word in most chats would cost more than the search. */
export const COUNT_CAP = 10_000;
const MAX_HITS = 200_000;
/** Above this many matching entries, chats are probed newest first instead of collecting every hit. */
const WALK_FROM_HITS = 5_000;
/** Probes before giving up on the walk (matches spread thin over many chats) and collecting every hit. */
const MAX_PROBES = 2_000;
/** Chats read at a time from the newest-first order while probing. */
const PAGE = 256;

interface Grouped {
  byChat: ByChat;
  /** Matching chats newest first (for the walk: the ones found, up to one more than wanted). */
  matched: number[] | null;
  totalChats: number | null;
}

/**
 * For a query that matches in most chats: probes chats newest first, each by
 * its rowid range, until one more than `want` are found. `matched` is null when
 * the probes ran out first (matches spread thin): collect every hit instead.
 */
function walkNewest(runner: QueryRunner, f: CompiledFilters, want: number, perChat: number): Grouped {
  const { db } = runner;
  // The bounds are cast: better-sqlite3 binds numbers as REAL, and FTS5 seeks by a rowid bound only when it is an INTEGER.
  const range = "AND f.rowid >= CAST(@lo AS INTEGER) AND f.rowid < CAST(@hi AS INTEGER)";
  const probe = `SELECT f.rowid ${f.from} ${range} ORDER BY f.rowid LIMIT @k`;
  const count = `SELECT count(*) ${f.from} ${range}`;
  const page = statement(
    db,
    `SELECT cid FROM chats ${f.chats ? `WHERE ${f.chats}` : ""} ${NEWEST_FIRST} LIMIT @n OFFSET @o`,
    true,
  );
  const chatParams = {
    ...(f.chats.includes("@cwd") ? { cwd: f.params.cwd } : {}),
    ...(f.chats.includes("@onlyChats") ? { onlyChats: f.params.onlyChats } : {}),
  };
  const byChat = new Map<number, ChatHits>();
  const matched: number[] = [];
  let probes = 0;
  for (let offset = 0; ; offset += PAGE) {
    const cids = page.all({ ...chatParams, n: PAGE, o: offset }) as number[];
    for (const cid of cids) {
      if (matched.length > want || probes++ > MAX_PROBES)
        return matched.length > want
          ? { byChat, matched, totalChats: null }
          : { byChat, matched: null, totalChats: null };
      const lo = cid * ENTRY_SPAN;
      const bounds = { ...f.params, q: runner.used, lo, hi: lo + ENTRY_SPAN };
      const first = runner.all(probe, { ...bounds, k: perChat }) as number[];
      if (!first.length) continue;
      matched.push(cid);
      if (matched.length <= want) byChat.set(cid, { count: runner.get(count, bounds) as number, first });
    }
    if (cids.length < PAGE) return { byChat, matched, totalChats: matched.length };
  }
}

/** The shown hits: each entry's line, role and time, and its snippet. */
function toHits(entries: Map<number, ShownEntry>): Map<number, SearchHit> {
  const out = new Map<number, SearchHit>();
  for (const [rid, e] of entries) out.set(rid, { line: e.line, role: e.role, ts: e.ts, snippet: parseSnippet(e.text) });
  return out;
}

/** A search read from one snapshot of the index, but for its snippets: their plan, and how to finish it. */
interface Pending {
  result: SearchResult;
  /** The FTS query as run (the snippets are cut with it). */
  used: string;
  plan: ShownPlan;
  /** Each shown chat's hits' rowids, in `result.groups`' order. */
  shownRowids: number[][];
}

/** Tries to plan and cut again when another search replaced the snippet table while this one read logs. */
const REPLANS = 3;

/**
 * Searches the index; a query FTS5 cannot read is refused with a sentence
 * saying how to write one. Everything is read from one snapshot of the index
 * (one read transaction); the text of hits deep in a large log is then read
 * back from the log (`log-texts.ts`), asynchronously, before the snippets are cut.
 */
export async function searchIndex(db: Db, options: SearchOptions): Promise<SearchResult> {
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    const pending = withSnapshot(db, (stamp) => search(db, stamp, options));
    const more = pending.plan.reads.length ? await readLogTexts(pending.plan.reads) : null;
    const entries = cutShown(db, pending.used, pending.plan, more);
    if (!entries && attempt < REPLANS) continue;
    const hits = toHits(entries ?? new Map());
    const { result, shownRowids } = pending;
    const groups = result.groups.map((g, i) => ({
      ...g,
      hits: (shownRowids[i] ?? []).flatMap((rid) => hits.get(rid) ?? []),
    }));
    return { ...result, groups, ms: Math.round((performance.now() - started) * 100) / 100 };
  }
}

function search(db: Db, stamp: string, options: SearchOptions): Pending {
  const query = checkQuery(options.query);
  const f = compileFilters(options);
  const runner = new QueryRunner(db, query, options.onFtsQuery);
  const perChat = options.perChat ?? 3;
  const want = options.chats ?? 20;
  const walkFrom = options.walkFrom ?? WALK_FROM_HITS;
  // In rowid order: the count below goes on after the last one fetched.
  const fetch = (limit: number) =>
    runner.run((q) =>
      runner.all(`SELECT f.rowid ${f.from} ORDER BY f.rowid LIMIT ${limit}`, { ...f.params, q }),
    ) as number[];
  const found = firstMatches(runner, f, fetch, walkFrom);
  const picked =
    (found.matches > walkFrom ? walkedChats(runner, f, found, want, perChat) : null) ??
    groupedChats(found, fetch, perChat);
  const shown = newestChats(db, stamp, picked.walked ? picked.chats.slice(0, want) : picked.chats, want);
  const shownRowids = shown.map((c) => picked.byChat.get(c.cid)?.first ?? []);
  const result: SearchResult = {
    query,
    groups: shown.map((chat) => toGroup(chat, picked.byChat)),
    totalHits: picked.totalHits,
    moreHits: picked.moreHits,
    totalChats: picked.totalChats,
    moreChats: picked.chats.length > want,
    truncated: picked.truncated,
    ms: 0,
  };
  return { result, used: runner.used, plan: planShown(db, stamp, shownRowids.flat()), shownRowids };
}

/** The first matches fetched, and how many entries match (counted on past them, up to `COUNT_CAP` + 1). */
interface FirstMatches {
  rowids: number[];
  matches: number;
}

/**
 * Fetches the first matches, up to the number from which chats are probed instead: a word in most chats
 * needs only their count, which SQLite finds without handing each match to JavaScript (half the time of
 * fetching them).
 */
function firstMatches(
  runner: QueryRunner,
  f: CompiledFilters,
  fetch: (limit: number) => number[],
  walkFrom: number,
): FirstMatches {
  const first = Math.min(walkFrom, COUNT_CAP) + 1;
  const rowids = fetch(first);
  if (rowids.length < first || first > COUNT_CAP) return { rowids, matches: rowids.length };
  const rest = `SELECT count(*) FROM (SELECT 1 ${f.from} AND f.rowid > CAST(@after AS INTEGER) ORDER BY f.rowid LIMIT ${COUNT_CAP + 1 - first})`;
  const more = runner.get(rest, { ...f.params, q: runner.used, after: rowids[first - 1] }) as number;
  return { rowids, matches: rowids.length + more };
}

/** The matching chats picked for the answer, with their hits and the counts the answer gives. */
interface Picked {
  byChat: ByChat;
  /** The matching chats: the walk's, newest first (one more than wanted), or every one the hits are in. */
  chats: number[];
  /** True when found by the walk (`chats` is already newest first). */
  walked: boolean;
  totalChats: number | null;
  totalHits: number;
  moreHits: boolean;
  truncated: boolean;
}

/** The hits' counts as first counted: up to `COUNT_CAP`, and whether more match. */
function counted(matches: number): Pick<Picked, "totalHits" | "moreHits" | "truncated"> {
  return { totalHits: Math.min(matches, COUNT_CAP), moreHits: matches > COUNT_CAP, truncated: false };
}

/** The chats found by probing newest first; `null` when the probes ran out first (collect every hit instead). */
function walkedChats(
  runner: QueryRunner,
  f: CompiledFilters,
  found: FirstMatches,
  want: number,
  perChat: number,
): Picked | null {
  const walk = walkNewest(runner, f, want, perChat);
  if (!walk.matched) return null;
  return {
    byChat: walk.byChat,
    chats: walk.matched,
    walked: true,
    totalChats: walk.totalChats,
    ...counted(found.matches),
  };
}

/**
 * The chats every hit is in, grouped from the hits in rowid order. When more matched than were fetched,
 * they are fetched again, up to `MAX_HITS` (over that, the answer says it was truncated).
 */
function groupedChats(found: FirstMatches, fetch: (limit: number) => number[], perChat: number): Picked {
  const first = counted(found.matches);
  const refetch = first.moreHits || found.rowids.length < found.matches;
  const all = refetch ? fetch(MAX_HITS + 1) : found.rowids;
  const truncated = refetch && all.length > MAX_HITS;
  const rowids = truncated ? all.slice(0, MAX_HITS) : all;
  const hits = refetch ? { totalHits: rowids.length, moreHits: truncated, truncated } : first;
  const { byChat, cids } = groupRowids(rowids, perChat);
  return { byChat, chats: cids, walked: false, totalChats: cids.length, ...hits };
}

/** One shown chat's group, its hits filled in once their snippets are cut. */
function toGroup(chat: ChatRow, byChat: ByChat): SearchGroup {
  const g = byChat.get(chat.cid) ?? { count: 0, first: [] };
  return {
    id: chat.id,
    title: chat.title,
    cwd: chat.cwd,
    folder: chat.folder,
    lastActivity: chat.last_activity,
    problems: chat.problems,
    count: g.count,
    hits: [],
  };
}

/** The working folders the index knows, for the filter's choices. */
export function listIndexedFolders(db: Db): string[] {
  return (
    db.prepare("SELECT DISTINCT cwd FROM chats WHERE cwd IS NOT NULL ORDER BY cwd").all() as { cwd: string }[]
  ).map((r) => r.cwd);
}
