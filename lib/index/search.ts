import { OdaError } from "../errors";
import type { Db } from "./db";

/**
 * Full-text search over the index with FTS5 syntax: words (all must appear),
 * "phrases", prefix*, NOT, OR, and parentheses. Results are grouped by chat,
 * best match first, each hit with its line number and a snippet whose matched
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
  /** Chats to return (default 50). */
  chats?: number;
  /** Hits shown per chat (default 5; `count` still counts them all). */
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
  /** Matching entries in all (up to the cap) and chats with one. */
  totalHits: number;
  totalChats: number;
  /** True when more entries matched than were counted. */
  truncated: boolean;
  ms: number;
}

const MAX_HITS = 20_000;
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

/** Searches the index; a query FTS5 cannot read is refused with a sentence saying how to write one. */
export function searchIndex(db: Db, options: SearchOptions): SearchResult {
  const started = performance.now();
  const query = options.query.trim();
  if (!query) throw new OdaError("bad_input", "Type something to search for.", { field: "query" });
  const where: string[] = ["lines_fts MATCH @q"];
  const params: Record<string, unknown> = {};
  if (options.role) {
    where.push("f.role = @role");
    params.role = options.role;
  }
  const since = normalizeTime(options.since, false);
  const until = normalizeTime(options.until, true);
  if (since) {
    where.push("f.ts >= @since");
    params.since = since;
  }
  if (until) {
    where.push("f.ts <= @until");
    params.until = until;
  }
  if (options.cwd) {
    where.push("c.cwd = @cwd");
    params.cwd = options.cwd;
  }
  if (options.problems) where.push("c.problems > 0");
  const sql = `SELECT f.rowid AS rid, f.cid AS cid, f.line AS line, f.rank AS rank
    FROM lines_fts f JOIN chats c ON c.cid = f.cid
    WHERE ${where.join(" AND ")} ORDER BY f.rank LIMIT ${MAX_HITS + 1}`;
  const statement = db.prepare(sql);
  let used = query;
  let rows: { rid: number; cid: number; line: number; rank: number }[];
  try {
    rows = statement.all({ ...params, q: query }) as typeof rows;
  } catch (error) {
    if (!isQueryError(error)) throw error;
    // A plain query with punctuation (`foo-bar`, `c:1`) is searched word by word as typed.
    const quoted = query.includes('"') ? null : quoteWords(query);
    try {
      if (!quoted) throw error;
      rows = statement.all({ ...params, q: quoted }) as typeof rows;
      used = quoted;
    } catch {
      throw new OdaError(
        "bad_input",
        `The search ${JSON.stringify(query)} cannot be read (${(error as Error).message.replace(/^fts5: /, "")}). Use words, "exact phrases", prefix* and NOT, for example: deploy NOT "staging server".`,
        { field: "query" },
      );
    }
  }
  const truncated = rows.length > MAX_HITS;
  if (truncated) rows.length = MAX_HITS;
  const byChat = new Map<number, { count: number; best: number; rows: typeof rows }>();
  for (const r of rows) {
    const g = byChat.get(r.cid) ?? { count: 0, best: r.rank, rows: [] };
    g.count++;
    g.rows.push(r);
    byChat.set(r.cid, g);
  }
  const chosen = [...byChat.entries()].sort((a, b) => a[1].best - b[1].best).slice(0, options.chats ?? 50);
  const perChat = options.perChat ?? 5;
  const shown = chosen.flatMap(([, g]) => g.rows.sort((a, b) => a.line - b.line || a.rid - b.rid).slice(0, perChat));
  const snippets = new Map<number, { text: string; role: string; ts: string | null }>();
  if (shown.length) {
    const ids = shown.map((r) => r.rid).join(",");
    const snips = db
      .prepare(
        `SELECT rowid AS rid, role, ts, snippet(lines_fts, 0, char(1), char(2), '…', 24) AS text
         FROM lines_fts WHERE lines_fts MATCH @q AND rowid IN (${ids})`,
      )
      .all({ q: used }) as { rid: number; role: string; ts: string | null; text: string }[];
    for (const s of snips) snippets.set(s.rid, s);
  }
  const chatRows = chosen.length
    ? (db
        .prepare(
          `SELECT cid, id, title, cwd, folder, last_activity, problems FROM chats WHERE cid IN (${chosen.map(([cid]) => cid).join(",")})`,
        )
        .all() as {
        cid: number;
        id: string;
        title: string | null;
        cwd: string | null;
        folder: string;
        last_activity: string | null;
        problems: number;
      }[])
    : [];
  const chats = new Map(chatRows.map((c) => [c.cid, c]));
  const groups: SearchGroup[] = [];
  for (const [cid, g] of chosen) {
    const chat = chats.get(cid);
    if (!chat) continue;
    groups.push({
      id: chat.id,
      title: chat.title,
      cwd: chat.cwd,
      folder: chat.folder,
      lastActivity: chat.last_activity,
      problems: chat.problems,
      count: g.count,
      hits: g.rows.slice(0, perChat).map((r) => {
        const s = snippets.get(r.rid);
        return { line: r.line, role: s?.role ?? "", ts: s?.ts ?? null, snippet: parseSnippet(s?.text ?? "") };
      }),
    });
  }
  return {
    query,
    groups,
    totalHits: rows.length,
    totalChats: byChat.size,
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
