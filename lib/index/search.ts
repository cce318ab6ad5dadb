import { OdaError } from "../errors";
import { type Db, ENTRY_SPAN } from "./db";

/**
 * Full-text search over the index with FTS5 syntax: words (all must appear),
 * "phrases", prefix*, NOT, OR, and parentheses. Results are grouped by chat,
 * the most recently active first, each hit with its line number and a snippet whose matched
 * words are marked.
 */

/** Narrowing a search. */
export interface SearchFilters {
  /** Only chats with this working folder. */
  cwd?: string | null;
  /** Only lines at or after this time (ISO date or date-time). */
  since?: string | null;
  /** Only lines at or before this time (an ISO date includes that whole day, UTC). */
  until?: string | null;
  /** Only entries of this role (`user`, `assistant`, `tool`, `memory`, …). */
  role?: string | null;
  /** Only chats that have problems. */
  problems?: boolean;
}

/** A search: the query and its filters. */
export interface SearchOptions extends SearchFilters {
  query: string;
  /** Chats to return, the most recently active first (default 20). */
  chats?: number;
  /** Above this many matching entries, chats are probed newest first (default 5,000; tests lower it). */
  walkFrom?: number;
  /** Hits shown per chat (default 3; `count` still counts them all). */
  perChat?: number;
}

/** A piece of a snippet; `hit` pieces are the matched words. */
export interface SnippetPart {
  text: string;
  hit: boolean;
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
  /** Matching entries in all. */
  totalHits: number;
  /** Chats with a match; `null` when the query matched so widely that only the newest chats were looked at. */
  totalChats: number | null;
  /** True when more chats match than `groups` holds. */
  moreChats: boolean;
  /** True when more entries matched than were grouped (over 200,000). */
  truncated: boolean;
  ms: number;
}

const MAX_HITS = 200_000;
/** Above this many matching entries, chats are probed newest first instead of collecting every hit. */
const WALK_FROM_HITS = 5_000;
/** Probes before giving up on the walk (matches spread thin over many chats) and collecting every hit. */
const MAX_PROBES = 2_000;
const OPEN = "\u0001";
const CLOSE = "\u0002";

/** A query with each bare word quoted: `foo-bar` and `c:1` become searchable as typed. */
export function quoteWords(query: string): string {
  return query
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      if (/^(AND|OR|NOT)$/.test(word)) return word;
      const prefix = word.endsWith("*");
      const core = prefix ? word.slice(0, -1) : word;
      return `"${core.replaceAll('"', '""')}"${prefix ? "*" : ""}`;
    })
    .join(" ");
}

function normalizeTime(value: string | null | undefined, end: boolean): string | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return end ? `${v}T23:59:59.999Z` : `${v}T00:00:00.000Z`;
  const ms = Date.parse(v);
  if (Number.isNaN(ms))
    throw new OdaError("bad_input", `"${v}" is not a date: use YYYY-MM-DD or an ISO date-time.`, {
      field: end ? "until" : "since",
    });
  return new Date(ms).toISOString();
}

/** Splits a snippet with the marker characters into parts. */
function parseSnippet(text: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let hit = false;
  let buf = "";
  for (const ch of text) {
    if (ch === OPEN || ch === CLOSE) {
      if (buf) parts.push({ text: buf, hit });
      buf = "";
      hit = ch === OPEN;
    } else buf += ch;
  }
  if (buf) parts.push({ text: buf, hit });
  return parts;
}

function isQueryError(error: unknown): boolean {
  const message = (error as Error)?.message ?? "";
  return (
    (error as { code?: string })?.code === "SQLITE_ERROR" &&
    /fts5|syntax error|no such column|unterminated|unknown special query/i.test(message)
  );
}

/** Chats newest first, and each chat's place in that order. */
interface Recency {
  cids: number[];
  rank: Map<number, number>;
}

const recency = new WeakMap<Db, { key: string; order: Recency }>();

/**
 * Every chat's place when ordered by last activity, newest first, kept per
 * connection until the index changes (`total_changes()` for this connection's
 * writes, `data_version` for other processes'), so ordering thousands of
 * matching chats costs no query.
 */
function recencyOrder(db: Db): Recency {
  const key = `${db.prepare("SELECT total_changes()").pluck().get()}|${db.pragma("data_version", { simple: true })}`;
  const known = recency.get(db);
  if (known?.key === key) return known.order;
  const cids = db
    .prepare("SELECT cid FROM chats ORDER BY last_activity IS NULL, last_activity DESC, cid")
    .pluck()
    .all() as number[];
  const order = { cids, rank: new Map(cids.map((cid, i) => [cid, i])) };
  recency.set(db, { key, order });
  return order;
}

interface ChatRow {
  cid: number;
  id: string;
  title: string | null;
  cwd: string | null;
  folder: string;
  last_activity: string | null;
  problems: number;
}

/**
 * Searches the index; a query FTS5 cannot read is refused with a sentence
 * saying how to write one. Matches are found from the FTS index alone (a
 * hit's chat is in its rowid); chats come newest first, hits in line order,
 * and only the hits shown get a snippet.
 */
export function searchIndex(db: Db, options: SearchOptions): SearchResult {
  const started = performance.now();
  const query = options.query.trim();
  if (!query) throw new OdaError("bad_input", "Type something to search for.", { field: "query" });
  const since = normalizeTime(options.since, false);
  const until = normalizeTime(options.until, true);
  const params: Record<string, unknown> = {};
  const where: string[] = ["lines_fts MATCH @q"];
  const onLine: string[] = [];
  if (options.role) {
    onLine.push("l.role = @role");
    params.role = options.role;
  }
  if (since) {
    onLine.push("l.ts >= @since");
    params.since = since;
  }
  if (until) {
    onLine.push("l.ts <= @until");
    params.until = until;
  }
  const onChat: string[] = [];
  if (options.cwd) {
    onChat.push("cwd = @cwd");
    params.cwd = options.cwd;
  }
  if (options.problems) onChat.push("problems > 0");
  if (onChat.length) where.push(`(f.rowid >> 24) IN (SELECT cid FROM chats WHERE ${onChat.join(" AND ")})`);
  const from = `FROM lines_fts f ${onLine.length ? "JOIN lines l ON l.id = f.rowid" : ""} WHERE ${[...where, ...onLine].join(" AND ")}`;
  let used = query;
  /** Runs a statement of this search; a query FTS5 cannot read is retried word by word, then refused. */
  const run = <T>(body: (q: string) => T): T => {
    try {
      return body(used);
    } catch (error) {
      if (!isQueryError(error) || used !== query) throw error;
      // A plain query with punctuation (`foo-bar`, `c:1`) is searched word by word as typed.
      const quoted = query.includes('"') ? null : quoteWords(query);
      try {
        if (!quoted) throw error;
        const result = body(quoted);
        used = quoted;
        return result;
      } catch {
        throw new OdaError(
          "bad_input",
          `The search ${JSON.stringify(query)} cannot be read (${(error as Error).message.replace(/^fts5: /, "")}). Use words, "exact phrases", prefix* and NOT, for example: deploy NOT "staging server".`,
          { field: "query" },
        );
      }
    }
  };
  const perChat = options.perChat ?? 3;
  const want = options.chats ?? 20;
  const order = recencyOrder(db);
  const totalHits = run(
    (q) =>
      db
        .prepare(`SELECT count(*) ${from}`)
        .pluck()
        .get({ ...params, q }) as number,
  );
  const byChat = new Map<number, { count: number; first: number[] }>();
  let totalChats: number | null = null;
  let truncated = false;
  let matched: number[] = [];
  if (totalHits > (options.walkFrom ?? WALK_FROM_HITS)) {
    // A query that matches in most chats: probe chats newest first, each by its rowid range, until enough are found.
    // The bounds are cast: better-sqlite3 binds numbers as REAL, and FTS5 seeks by a rowid bound only when it is an INTEGER.
    const probe = db
      .prepare(
        `SELECT f.rowid ${from} AND f.rowid >= CAST(@lo AS INTEGER) AND f.rowid < CAST(@hi AS INTEGER) ORDER BY f.rowid LIMIT @k`,
      )
      .pluck();
    const count = db
      .prepare(`SELECT count(*) ${from} AND f.rowid >= CAST(@lo AS INTEGER) AND f.rowid < CAST(@hi AS INTEGER)`)
      .pluck();
    let probes = 0;
    let exhausted = true;
    for (const cid of order.cids) {
      if (matched.length > want || probes++ > MAX_PROBES) {
        exhausted = false;
        break;
      }
      const lo = cid * ENTRY_SPAN;
      const first = probe.all({ ...params, q: used, lo, hi: lo + ENTRY_SPAN, k: perChat }) as number[];
      if (!first.length) continue;
      matched.push(cid);
      if (matched.length <= want) {
        byChat.set(cid, { count: count.get({ ...params, q: used, lo, hi: lo + ENTRY_SPAN }) as number, first });
      }
    }
    if (exhausted) totalChats = matched.length;
    else if (matched.length <= want) {
      matched = [];
      byChat.clear();
    }
  }
  if (!matched.length) {
    const rowids = run(
      (q) =>
        db
          .prepare(`SELECT f.rowid ${from} LIMIT ${MAX_HITS + 1}`)
          .pluck()
          .all({ ...params, q }) as number[],
    );
    truncated = rowids.length > MAX_HITS;
    if (truncated) rowids.length = MAX_HITS;
    for (const rid of rowids) {
      const cid = Math.floor(rid / ENTRY_SPAN);
      let g = byChat.get(cid);
      if (!g) {
        g = { count: 0, first: [] };
        byChat.set(cid, g);
      }
      g.count++;
      if (g.first.length < perChat) g.first.push(rid);
    }
    totalChats = byChat.size;
    matched = [...byChat.keys()].sort((a, b) => (order.rank.get(a) ?? 0) - (order.rank.get(b) ?? 0));
  }
  const moreChats = matched.length > want;
  matched = matched.slice(0, want);
  const chatRows = matched.length
    ? (
        db
          .prepare(
            "SELECT cid, id, title, cwd, folder, last_activity, problems FROM chats WHERE cid IN (SELECT value FROM json_each(?))",
          )
          .all(JSON.stringify(matched)) as ChatRow[]
      ).sort((a, b) => (order.rank.get(a.cid) ?? 0) - (order.rank.get(b.cid) ?? 0))
    : [];
  const shown = chatRows.flatMap((c) => byChat.get(c.cid)?.first ?? []);
  const entries = new Map<number, { line: number; role: string; ts: string | null; text: string }>();
  if (shown.length) {
    const one = db.prepare(
      `SELECT rowid AS rid, line, role, ts, snippet(lines_fts, 0, char(1), char(2), '…', 24) AS text
       FROM lines_fts WHERE lines_fts MATCH @q AND rowid = CAST(@rid AS INTEGER)`,
    );
    for (const rid of shown) {
      const r = one.get({ q: used, rid }) as
        | { rid: number; line: number; role: string; ts: string | null; text: string }
        | undefined;
      if (r) entries.set(rid, r);
    }
  }
  const groups: SearchGroup[] = chatRows.map((chat) => {
    const g = byChat.get(chat.cid) ?? { count: 0, first: [] };
    return {
      id: chat.id,
      title: chat.title,
      cwd: chat.cwd,
      folder: chat.folder,
      lastActivity: chat.last_activity,
      problems: chat.problems,
      count: g.count,
      hits: g.first.flatMap((rid) => {
        const e = entries.get(rid);
        return e ? [{ line: e.line, role: e.role, ts: e.ts, snippet: parseSnippet(e.text) }] : [];
      }),
    };
  });
  return {
    query,
    groups,
    totalHits,
    totalChats,
    moreChats,
    truncated,
    ms: Math.round((performance.now() - started) * 100) / 100,
  };
}

/** The working folders the index knows, for the filter's choices. */
export function listIndexedFolders(db: Db): string[] {
  return (
    db.prepare("SELECT DISTINCT cwd FROM chats WHERE cwd IS NOT NULL ORDER BY cwd").all() as { cwd: string }[]
  ).map((r) => r.cwd);
}
