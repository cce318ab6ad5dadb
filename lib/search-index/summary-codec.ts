import { join, sep } from "node:path";
import type { ChatSummary } from "../chats";
import { parseLogName } from "../chats/names";
import { GENERATION_KEYS as GEN_KEYS, SUMMARY_KEYS as KEYS, keysInOrder } from "../chats/summary-keys";

/**
 * A chat's summary as the index row keeps it: only what its columns and its
 * place do not already say, and no value equal to the common default (no
 * checkpoint, no lock, a complete tail, no problems). A 100,000-chat index
 * kept each summary whole (about 1 KB, mostly absolute paths and default
 * sentences), half the file's size beside its own text. Decoding gives back
 * the very object, keys in the same order; a summary this scheme cannot
 * give back exactly (keys in another order) is kept whole.
 */

/** Values most chats have: left out when equal. */
const DEFAULTS: Record<string, unknown> = {
  created: null,
  continues: null,
  models: [],
  inputTokens: 0,
  outputTokens: 0,
  cached: false,
  cacheState: "none",
  cacheReason: "No checkpoint.",
  behindBytes: 0,
  lock: { state: "none", reason: "No lock file." },
  tail: { state: "complete", offset: null, frameOffset: null, decodedFromCut: 0, pendingBytes: 0, message: null },
  problems: [],
};
const GEN_DEFAULTS: Record<string, unknown> = { bytes: 0, current: false, refused: null, blocked: null };

/** The row's columns a summary's fields are read back from. */
export interface SummaryColumns {
  id: string;
  folder: string;
  cwd: string | null;
  title: string | null;
  first_activity: string | null;
  last_activity: string | null;
  messages: number;
  format: number | null;
}

/** The row columns `decodeSummary` reads, for a SELECT. */
export const SUMMARY_COLUMNS = "id, folder, cwd, title, first_activity, last_activity, messages, format, summary";

/**
 * SQL giving a row's summary lock state and problem count from either form
 * (a compact one leaves out a lock of state none and an empty problem list).
 */
export const SUMMARY_SQL = {
  lockState: "coalesce(json_extract(ltrim(summary, '~'), '$.lock.state'), 'none')",
  problems: "coalesce(json_array_length(ltrim(summary, '~'), '$.problems'), 0)",
};

const COLUMN_OF: Record<string, keyof SummaryColumns> = {
  id: "id",
  folder: "folder",
  cwd: "cwd",
  title: "title",
  firstActivity: "first_activity",
  lastActivity: "last_activity",
  messages: "messages",
  format: "format",
};

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
const groupOf = (folder: string) => folder.slice(0, Math.max(0, folder.indexOf("/")));
/** Where a chat folder is, from the log folder and its relative name. */
const dirOf = (logDir: string, folder: string) => join(logDir, ...folder.split("/"));

/** The compact form of `summary`, a chat in `dir` of the log folder `logDir`. */
export function encodeSummary(summary: ChatSummary, dir: string, logDir: string): string {
  const gens = summary.generations as unknown as Record<string, unknown>[];
  if (!keysInOrder(summary, KEYS) || !gens.every((g) => keysInOrder(g, GEN_KEYS))) return JSON.stringify(summary);
  const rest: Record<string, unknown> = {};
  if (dir !== dirOf(logDir, summary.folder)) rest.$dir = dir;
  if (summary.group !== groupOf(summary.folder)) rest.group = summary.group;
  rest.generations = gens.map((g) => {
    const out: Record<string, unknown> = { name: g.name };
    const parsed = parseLogName(g.name as string);
    if (g.format !== parsed?.format) out.format = g.format;
    if (g.compressed !== parsed?.compressed) out.compressed = g.compressed;
    if (g.path !== `${dir}${sep}${g.name}`) out.path = g.path;
    for (const k of ["bytes", "current", "refused", "blocked"]) if (!same(g[k], GEN_DEFAULTS[k])) out[k] = g[k];
    return out;
  });
  const all = summary as unknown as Record<string, unknown>;
  for (const k of Object.keys(DEFAULTS)) if (!same(all[k], DEFAULTS[k])) rest[k] = all[k];
  return `~${JSON.stringify(rest)}`;
}

/** The summary back from its compact form, the row's columns and the log folder. */
export function decodeSummary(stored: string, columns: SummaryColumns, logDir: string): ChatSummary {
  if (!stored.startsWith("~")) return JSON.parse(stored) as ChatSummary;
  const rest = JSON.parse(stored.slice(1)) as Record<string, unknown>;
  const dir = (rest.$dir as string | undefined) ?? dirOf(logDir, columns.folder);
  const out: Record<string, unknown> = {};
  for (const k of KEYS) {
    if (k in rest) out[k] = rest[k];
    else if (k in COLUMN_OF) out[k] = columns[COLUMN_OF[k] as keyof SummaryColumns];
    else if (k === "group") out[k] = groupOf(columns.folder);
    else out[k] = structuredClone(DEFAULTS[k]);
  }
  out.generations = (rest.generations as Record<string, unknown>[]).map((g) => {
    const name = g.name as string;
    const parsed = parseLogName(name);
    const derived: Record<string, unknown> = {
      name,
      format: parsed?.format,
      compressed: parsed?.compressed,
      path: `${dir}${sep}${name}`,
      ...GEN_DEFAULTS,
    };
    const gen: Record<string, unknown> = {};
    for (const k of GEN_KEYS) gen[k] = k in g ? g[k] : derived[k];
    return gen;
  });
  return out as unknown as ChatSummary;
}
