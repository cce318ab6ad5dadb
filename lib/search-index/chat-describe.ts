import { type Stats, statSync } from "node:fs";
import { type ChatSummary, hashLogTail, type SeekPoint, type SummarizeOptions, summarizeChat } from "../chats";
import type { ReadTask } from "./read-messages";
import type { IndexedChat } from "./scan";
import { encodeSummary } from "./summary-codec";
import { chatFacts } from "./usage";

/**
 * The first step of a chat's re-read: what the chat is now (its summary,
 * current log and the row fields they give), and from that whether only its
 * summary changed, or its log only grew and where to resume reading it.
 */

type Generation = ChatSummary["generations"][number];

/** The chat as it is now: its summary, current log and the row fields they give. */
export interface Described {
  summary: ChatSummary;
  current: Generation | null;
  st: Stats | null;
  base: Record<string, unknown>;
}

/**
 * Summarizes the chat (its checkpoint, or its log read whole: by `rebuild`
 * when given; its folder as `files` says when given) and stats its current
 * log (with `stat` when given) and its other files (unless in `known`).
 */
export async function describeChat(
  { seen, compress, logDir }: ReadTask,
  options: Pick<SummarizeOptions, "rebuild" | "files" | "log" | "onHead"> & {
    stat?: (path: string) => Stats;
    /** The folder's files stat'ed already for the chat's fingerprint, by name (not stat'ed again). */
    known?: ReadonlyMap<string, Stats>;
  } = {},
): Promise<Described> {
  const { rebuild, files, log, onHead } = options;
  const summary = await summarizeChat(seen.loc, { compress, rebuild, files, log, onHead });
  const current = summary.generations.find((g) => g.current) ?? null;
  const st = current ? (options.stat ?? statSync)(current.path) : null;
  const base = {
    id: summary.id,
    folder: summary.folder,
    cwd: summary.cwd,
    title: summary.title,
    first_activity: summary.firstActivity,
    last_activity: summary.lastActivity,
    messages: summary.messages,
    source: summary.cached ? "checkpoint" : "log",
    summary: encodeSummary(summary, seen.loc.dir, logDir),
    indexed_at: new Date().toISOString(),
    ...chatFacts(summary, seen.loc.dir, options.files?.names, options.known),
  };
  return { summary, current, st, base };
}

/** True when the indexed log is the same file, same size and time: only the checkpoint or the lock changed. */
export function isSameLog(row: IndexedChat | null, { current, st }: Described): boolean {
  return (
    !!row &&
    !!current &&
    !!st &&
    row.log_name === current.name &&
    row.log_ino === st.ino &&
    row.log_size === st.size &&
    row.log_mtime === st.mtimeMs
  );
}

/**
 * Where to resume reading a log that only grew (same file, the bytes before the seek point unchanged);
 * `hashTail` hashes the log's bytes before an offset (through the reader's open descriptor when given).
 */
export function resumePoint(
  row: IndexedChat | null,
  { current, st }: Described,
  hashTail?: (bytes: number) => string,
): SeekPoint | undefined {
  const grown =
    row &&
    current &&
    st &&
    row.log_name === current.name &&
    row.log_ino === st.ino &&
    row.log_size !== null &&
    st.size > row.log_size &&
    row.seek_comp !== null &&
    row.seek_sha !== null &&
    (hashTail ? hashTail(row.seek_comp) : hashLogTail(current.path, row.seek_comp)) === row.seek_sha;
  return grown && row.seek_line !== null && row.seek_dec !== null && row.seek_comp !== null
    ? { line: row.seek_line, dec: row.seek_dec, comp: row.seek_comp }
    : undefined;
}
