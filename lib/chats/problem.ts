/**
 * A problem the reader found: its exact sentence and, as data, every path the
 * sentence names, so no page, repair or report parses them back out of it.
 * Browser-safe (no `node:*`).
 */

/** What kind of problem it is. */
export type ProblemKind =
  /** A folder name that does not decode (not a chat). */
  | "name"
  /** The same chat in two places (both refused). */
  | "duplicate"
  /** A log of the other form than the folder keeps. */
  | "form"
  /** A chat folder without a log. */
  | "no-log"
  /** A header that names another chat or working folder. */
  | "identity"
  /** A complete line that is not a JSON object (or one over the line limit). */
  | "line"
  /** An unfinished piece at the end (cut frame, unfinished line). */
  | "tail"
  /** A log that cannot be decoded. */
  | "unreadable"
  /** A checkpoint that cannot be read, or that no longer fits its log and was discarded. */
  | "cache"
  /** A stale `session.lock` (the sentence names its holder and why it is stale). */
  | "lock"
  /** A symbolic link that leads outside the log folder, loops or leads nowhere (never read). */
  | "link"
  /**
   * An entry of the wrong kind: a FIFO, socket or device named like a log,
   * checkpoint or lock, or anything but a folder where a group or chat folder belongs (never read).
   */
  | "special"
  /**
   * A file or folder the system would not give (permission, removed or replaced
   * while read, I/O error, too many open files, a link loop): the sentence says
   * what the system answered and what to do (`lib/fs/system-error.ts`).
   */
  | "system";

/** One problem the reader found, with the exact sentence to show. */
export interface Problem {
  kind: ProblemKind;
  /** The file or folder the problem is about. */
  path: string;
  /** Every path the sentence names (`path` first; both copies of a chat stored twice). */
  paths: string[];
  message: string;
  /** The chat id, for a chat stored in two places. */
  chat?: string;
}

/** A problem about `path`; `more` adds the other paths the sentence names and the chat id. */
export function problemAt(
  kind: ProblemKind,
  path: string,
  message: string,
  more: { paths?: string[]; chat?: string } = {},
): Problem {
  return { kind, path, paths: more.paths ?? [path], message, ...(more.chat === undefined ? {} : { chat: more.chat }) };
}

/** The contract's note that ends a sentence about a log: ` raw log: <path>`. */
export function rawLogNote(path: string): string {
  return ` raw log: ${path}`;
}

/** Adds the contract's raw log note to a refusal. */
export function withRawLog(sentence: string, path: string): string {
  return `${sentence}${rawLogNote(path)}`;
}

/**
 * A problem's sentence without its raw log note, and the log the note names
 * (one of the problem's own paths), for a page that shows the note on a line of its own.
 */
export function splitRawLog(problem: Pick<Problem, "message" | "paths">): { sentence: string; rawLog: string | null } {
  for (const path of problem.paths) {
    const note = rawLogNote(path);
    if (problem.message.endsWith(note)) return { sentence: problem.message.slice(0, -note.length), rawLog: path };
  }
  return { sentence: problem.message, rawLog: null };
}

/** A problem read back from an older store (index meta) that had no `paths`. */
export function withPaths(problem: Omit<Problem, "paths"> & { paths?: string[] }): Problem {
  return problem.paths ? (problem as Problem) : { ...problem, paths: [problem.path] };
}
