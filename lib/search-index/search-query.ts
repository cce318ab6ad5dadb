import type Database from "better-sqlite3";
import { OdaError } from "../errors";
import type { Db } from "./db";
import { CLOSE, OPEN } from "./snippets";

/**
 * The parts of a search around the FTS5 query itself: reading what was typed
 * (length, dates, filters) into SQL, and retrying a plain query that FTS5
 * cannot read word by word before refusing it with a sentence.
 */

const MARKERS = new RegExp(`([${OPEN}${CLOSE}])`);

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
  /** Only these chats (by id): the chats with notes, for `--with-notes`. */
  onlyChats?: string[] | null;
}

/** A piece of a snippet; `hit` pieces are the matched words. */
export interface SnippetPart {
  text: string;
  hit: boolean;
}

/** A character the index's tokenizer keeps (`TOKENIZER`: letters, numbers, private use, other symbols). */
const TOKEN_CHAR = /[\p{L}\p{N}\p{Co}\p{So}]/u;

/**
 * A query with each bare word quoted: `foo-bar` and `c:1` become searchable as
 * typed. AND, OR, NOT and the parentheses that open and close groups stay
 * syntax, so that `revenue AND (` is still refused as unreadable rather than
 * searched as the words "revenue" and "(". A word with nothing the index keeps
 * (`-`, `&`) is left out: as a phrase it would match no chat at all.
 */
export function quoteWords(query: string): string {
  let depth = 0;
  const out: string[] = [];
  for (const word of query.split(/\s+/).filter(Boolean)) {
    if (/^(AND|OR|NOT)$/.test(word)) {
      out.push(word);
      continue;
    }
    let core = word;
    const open = /^\(*/.exec(core)?.[0].length ?? 0;
    core = core.slice(open);
    depth += open;
    let close = 0;
    while (depth > 0 && core.endsWith(")")) {
      core = core.slice(0, -1);
      close++;
      depth--;
    }
    const prefix = core.endsWith("*");
    if (prefix) core = core.slice(0, -1);
    // A `)` that closes no group stays syntax too: FTS5 then names it.
    const quoted = /^\)+$/.test(core)
      ? core
      : TOKEN_CHAR.test(core)
        ? `"${core.replaceAll('"', '""')}"${prefix ? "*" : ""}`
        : "";
    const piece = `${"(".repeat(open)}${quoted}${")".repeat(close)}`;
    if (piece) out.push(piece);
  }
  return out.join(" ");
}

const OPERATORS = new Set(["AND", "OR", "NOT"]);

/**
 * What is wrong with a query FTS5 cannot read, in words: an unclosed `"` or
 * `(`, a `)` that closes nothing, an operator with nothing on one side; FTS5's
 * own words otherwise.
 */
export function describeQueryError(query: string, engine: string): string {
  if ((query.match(/"/g)?.length ?? 0) % 2 === 1) return 'a " is never closed';
  // Outside phrases, split into words and parentheses.
  const tokens = query
    .replace(/"[^"]*"/g, " x ")
    .split(/(\(|\))|\s+/)
    .filter((t): t is string => Boolean(t));
  let depth = 0;
  for (const [i, token] of tokens.entries()) {
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    if (token === "(") depth++;
    else if (token === ")") {
      if (depth === 0) return "a ) closes no (";
      if (before === "(") return "a ( is closed with nothing inside it";
      depth--;
    } else if (OPERATORS.has(token)) {
      if (before === undefined || before === "(" || OPERATORS.has(before)) return `${token} has nothing before it`;
      if (after === undefined || after === ")" || OPERATORS.has(after)) return `${token} has nothing after it`;
    }
  }
  if (depth > 0) return "a ( is never closed";
  return engine.replace(/^fts5: /, "");
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

/** The filters as SQL: `from` selects matching FTS rows (`f`), `chats` narrows the chats table. */
export interface CompiledFilters {
  from: string;
  /** A WHERE clause over `chats`, or "" for every chat. */
  chats: string;
  params: Record<string, unknown>;
}

/** Turns the filters into the FROM/WHERE of every statement of a search. */
export function compileFilters(options: SearchFilters): CompiledFilters {
  const since = normalizeTime(options.since, false);
  const until = normalizeTime(options.until, true);
  const params: Record<string, unknown> = {};
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
  if (options.onlyChats) {
    onChat.push("id IN (SELECT value FROM json_each(@onlyChats))");
    params.onlyChats = JSON.stringify(options.onlyChats);
  }
  const chats = onChat.join(" AND ");
  const where = ["lines_fts MATCH @q", ...(chats ? [`(f.rowid >> 24) IN (SELECT cid FROM chats WHERE ${chats})`] : [])];
  const join = onLine.length ? "JOIN lines l ON l.id = f.rowid" : "";
  return { from: `FROM lines_fts f ${join} WHERE ${[...where, ...onLine].join(" AND ")}`, chats, params };
}

function isQueryError(error: unknown): boolean {
  const message = (error as Error)?.message ?? "";
  return (
    (error as { code?: string })?.code === "SQLITE_ERROR" &&
    /fts5|syntax error|no such column|unterminated|unknown special query/i.test(message)
  );
}

/** Called with each statement a search runs on the FTS index, as it runs it (`SearchOptions.onFtsQuery`). */
export type FtsTracer = (sql: string, params: Record<string, unknown>, rows: "all" | "get") => void;

const prepared = new WeakMap<Db, Map<string, Database.Statement>>();

/** A statement of this connection, prepared once: a search runs a handful, and preparing them cost as much as running them. */
export function statement(db: Db, sql: string, pluck = false): Database.Statement {
  let cache = prepared.get(db);
  if (!cache) {
    cache = new Map();
    prepared.set(db, cache);
  }
  const key = `${pluck ? "p" : "r"}${sql}`;
  let s = cache.get(key);
  if (!s) {
    s = db.prepare(sql);
    if (pluck) s.pluck();
    // Filters make the statements vary: a long-lived server keeps the most recent ones only.
    if (cache.size >= 200) cache.delete(cache.keys().next().value as string);
    cache.set(key, s);
  }
  return s;
}

/**
 * Runs statements of one search with the query FTS5 reads: a plain query with
 * punctuation (`foo-bar`, `c:1`) is retried word by word as typed, then refused.
 */
export class QueryRunner {
  used: string;
  constructor(
    readonly db: Db,
    readonly query: string,
    private tracer?: FtsTracer,
  ) {
    this.used = query;
  }

  /** Every row's first column of an FTS statement. */
  all(sql: string, params: Record<string, unknown>): unknown[] {
    this.tracer?.(sql, params, "all");
    return statement(this.db, sql, true).all(params);
  }

  /** The first row's first column of an FTS statement. */
  get(sql: string, params: Record<string, unknown>): unknown {
    this.tracer?.(sql, params, "get");
    return statement(this.db, sql, true).get(params);
  }

  run<T>(body: (q: string) => T): T {
    try {
      return body(this.used);
    } catch (error) {
      if (!isQueryError(error) || this.used !== this.query) throw error;
      const quoted = this.query.includes('"') ? null : quoteWords(this.query);
      try {
        if (!quoted) throw error;
        const result = body(quoted);
        this.used = quoted;
        return result;
      } catch {
        throw new OdaError(
          "bad_input",
          `The search ${JSON.stringify(this.query)} cannot be read: ${describeQueryError(this.query, (error as Error).message)}. Use words, "exact phrases", prefix*, AND, OR, NOT and parentheses, for example: deploy NOT "staging server".`,
          { field: "query" },
        );
      }
    }
  }
}

/** Splits a snippet with the marker characters into parts. */
export function parseSnippet(text: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let hit = false;
  // Split natively at the markers (kept as pieces): a search parses dozens of snippets, most before V8 compiles it.
  for (const piece of text.split(MARKERS)) {
    if (piece === OPEN || piece === CLOSE) hit = piece === OPEN;
    else if (piece) parts.push({ text: piece, hit });
  }
  return parts;
}
