import { type Stats, statSync } from "node:fs";
import { sep } from "node:path";
import type Database from "better-sqlite3";
import type { ChatSummary } from "../chats";
import { CACHE_FILE, LOCK_FILE } from "../chats/names";
import { isSystemError } from "../fs/system-error";
import { type Db, perConnection } from "./per-connection";
import { QUARTER_MS, startQuarter } from "./quarter";

/**
 * The usage facts the index keeps for Insights (issue 17): each message line's
 * time, model and tokens, summed per chat, UTC quarter hour and model as the
 * refresh extracts lines. A quarter hour is the finest grouping any report
 * needs: a report groups by local day, week or month, and every time zone's
 * offset and every offset change is a whole number of quarter hours, so the
 * sums stay exact while the table stays a few rows per chat (a 100,000-chat
 * folder's first view aggregates in a fraction of a second).
 */

export { QUARTER_MS } from "./quarter";

/** The usage table; `q` is `floor(ts / QUARTER_MS)` in UTC, -1 for a message with no readable time. */
export const USAGE_SCHEMA = `
CREATE TABLE usage (
  cid INTEGER NOT NULL,
  q INTEGER NOT NULL,
  -- '' when the line names no model.
  model TEXT NOT NULL,
  messages INTEGER NOT NULL,
  -- Messages of format 1 logs, which record no usage (counted, never guessed).
  bare INTEGER NOT NULL,
  input INTEGER NOT NULL,
  output INTEGER NOT NULL,
  PRIMARY KEY (cid, q, model)
) WITHOUT ROWID;
CREATE INDEX usage_q ON usage(q, model, cid, messages, bare, input, output);
-- Model first: a period report walks each model's quarter hours in order (see lib/insights/periods.ts).
CREATE INDEX usage_mq ON usage(model, q, cid, messages, bare, input, output);
`;

/** One group of message facts before it is written. */
interface UsageSums {
  messages: number;
  bare: number;
  input: number;
  output: number;
}

function tokens(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/**
 * Collects the usage facts of the lines a refresh reads (on a reader thread),
 * handed over with their text (`take`).
 */
export class UsageBatch {
  private sums = new Map<string, UsageSums>();

  /** Adds one parsed line of a log of `format`; lines that are not messages add nothing (as the chat list counts). */
  add(json: Record<string, unknown> | null, format: number): void {
    if (!json) return;
    const isMessage = json.type === "message" || (json.type === undefined && typeof json.role === "string");
    if (!isMessage) return;
    const ts = typeof json.ts === "string" ? json.ts : typeof json.time === "string" ? json.time : null;
    const ms = ts === null ? Number.NaN : Date.parse(ts);
    const q = Number.isFinite(ms) && ms >= 0 ? Math.floor(ms / QUARTER_MS) : -1;
    const model = typeof json.model === "string" ? json.model : "";
    const usage = json.usage && typeof json.usage === "object" ? (json.usage as Record<string, unknown>) : {};
    const key = `${q}\0${model}`;
    let s = this.sums.get(key);
    if (!s) {
      s = { messages: 0, bare: 0, input: 0, output: 0 };
      this.sums.set(key, s);
    }
    s.messages++;
    if (format < 4) s.bare++;
    s.input += tokens(usage.input_tokens);
    s.output += tokens(usage.output_tokens);
  }

  /** The sums collected since the last call, as rows to write (`writeUsage`), and an empty batch. */
  take(): UsageRows {
    const rows: UsageRows = [];
    for (const [key, s] of this.sums) {
      const cut = key.indexOf("\0");
      rows.push([Number(key.slice(0, cut)), key.slice(cut + 1), s.messages, s.bare, s.input, s.output]);
    }
    this.sums.clear();
    return rows;
  }
}

/** Usage sums ready to write: quarter hour, model, messages, bare, input, output. */
export type UsageRows = [number, string, number, number, number, number][];

interface UsageStatements {
  put: Database.Statement;
  setTotals: Database.Statement;
  addTotals: Database.Statement;
  drop: Database.Statement;
}
const statementsOf = perConnection<UsageStatements>((db) => ({
  put: db.prepare(`INSERT INTO usage (cid, q, model, messages, bare, input, output) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(cid, q, model) DO UPDATE SET messages = messages + excluded.messages, bare = bare + excluded.bare,
      input = input + excluded.input, output = output + excluded.output`),
  setTotals: db.prepare("UPDATE chats SET u_messages = @m, u_bare = @b, u_input = @i, u_output = @o WHERE cid = @cid"),
  addTotals: db.prepare(
    `UPDATE chats SET u_messages = u_messages + @m, u_bare = u_bare + @b, u_input = u_input + @i,
        u_output = u_output + @o WHERE cid = @cid`,
  ),
  drop: db.prepare("DELETE FROM usage WHERE cid = ?"),
}));

/**
 * Adds a batch's usage rows to the chat's, and its sums to the chat's totals
 * (`first`: the chat's first batch read from the start, whose sums are its
 * totals), in the caller's transaction, with the batch's text: an interrupted
 * refresh that resumes from its seek point never counts a line twice.
 */
export function writeUsage(db: Db, cid: number, rows: UsageRows, first: boolean): void {
  const s = statementsOf(db);
  const sums = { cid, m: 0, b: 0, i: 0, o: 0 };
  for (const r of rows) {
    s.put.run(cid, ...r);
    sums.m += r[2];
    sums.b += r[3];
    sums.i += r[4];
    sums.o += r[5];
  }
  if (first) s.setTotals.run(sums);
  else if (rows.length) s.addTotals.run(sums);
}

/** Removes a chat's usage rows (a chat gone, or read again from its start). */
export function deleteUsage(db: Db, cid: number): void {
  statementsOf(db).drop.run(cid);
}

/** The Insights facts of a chat folder kept on its index row (stat only; nothing is decompressed). */
export interface ChatFacts {
  /** The UTC quarter hour of its first activity (chats started per day). */
  start_q: number | null;
  format: number | null;
  /** Bytes of every log generation but the current one, and how many there are. */
  old_bytes: number;
  old_logs: number;
  cache_bytes: number;
  lock_bytes: number;
}

function sizeOf(path: string): number {
  try {
    return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  } catch (error) {
    // Not to be seen (a folder without permission): the chat's summary names it; its size is unknown here.
    if (isSystemError(error)) return 0;
    throw error;
  }
}

/**
 * A chat's facts from its summary (first activity, generation sizes) and two stats, left out for a file the
 * folder's listing (`names`, when given) did not show, and not taken again for a file stat'ed already for the
 * chat's fingerprint (`known`, by name: the sizes then match the fingerprint the row is stored with).
 */
export function chatFacts(
  summary: ChatSummary,
  dir: string,
  names?: readonly string[],
  known?: ReadonlyMap<string, Stats>,
): ChatFacts {
  const size = (name: string) =>
    names && !names.includes(name) ? 0 : (known?.get(name)?.size ?? sizeOf(`${dir}${sep}${name}`));
  const older = summary.generations.filter((g) => !g.current);
  return {
    start_q: startQuarter(summary.firstActivity),
    format: summary.format,
    old_bytes: older.reduce((n, g) => n + g.bytes, 0),
    old_logs: older.length,
    cache_bytes: size(CACHE_FILE),
    lock_bytes: size(LOCK_FILE),
  };
}
