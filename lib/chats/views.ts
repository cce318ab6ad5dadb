import type { LockStatus } from "../fs/lock";
import type { ChatSummary } from "./chat";
import type { TailReport } from "./line-index";
import type { Problem } from "./problem";

/**
 * The chat list's rows and the inspector's views as the server sends them to
 * the page (`server/views/chat-list.ts`, `server/views/chat-inspector.ts`): plain,
 * serialisable data. Here, below the server, so that `lib/types.ts` hands them
 * to client components without importing upwards.
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
  /** The time of its first activity: the day it started (`lib/insights/started.ts`), as Insights counts it. */
  firstActivity: string | null;
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
  /** How many marks and notes the admin state keeps on the chat (absent when none). */
  notes?: number;
}

/** Where the list comes from: the index when it is fresh, else the folder. */
export interface ChatListSource {
  /** True when the rows come from the index, which is up to date. */
  fresh: boolean;
  /** True while the index's rows are shown and being checked against the log folder. */
  checking?: boolean;
  /** The index's own freshness sentence (while checking: {@link CHECKING_INDEX}). */
  sentence: string;
}

/** The chat list's `format=` value for chat folders that hold no log file. */
export const NO_LOG_FILE = "none";
/**
 * The chat list's `format=` value for chats whose log files are all refused (of the other form, or not to be
 * opened: `docs/file-contract.md`, Layout): the chats Insights counts as "(no usable log)".
 */
export const UNUSABLE_LOG = "unusable";

/** The chat list's sortable columns. */
export const CHAT_SORT_KEYS = [
  "title",
  "folder",
  "lastActivity",
  "messages",
  "tokens",
  "format",
  "lock",
  "problems",
] as const;
export type ChatSortKey = (typeof CHAT_SORT_KEYS)[number];
/** An order of the chat list: a column and a direction. */
export interface ChatSort {
  key: ChatSortKey;
  dir: "asc" | "desc";
}

export interface ChatListBatch {
  rows: ChatRow[];
  /** Folder-level problems (first batch only): names that do not decode, chats stored twice. */
  problems: ChatProblem[];
  done: number;
  total: number;
  /** Set on the first batch when there is an index (an admin state folder), and on the last after a check. */
  index?: ChatListSource;
  /**
   * After the index's rows: `rows` replace the rows of the same id (or are
   * new), `removed` names the ones that are gone, and `problems` (when the
   * folder's own problems changed) replace the folder problems.
   */
  update?: { removed: string[]; replaceProblems: boolean };
  /**
   * First batch from the index: every working-folder group with its count of chats, so the page lays out
   * each group's place before its rows arrive (they fill it in the index's order, and nothing moves).
   */
  groups?: { group: string; cwd: string | null; count: number }[];
  /**
   * First batch: the order the rows come in when the server sorted them (the index's, for the order asked
   * for); absent when they come in the log folder's order and the page sorts them itself.
   */
  order?: ChatSort;
  /**
   * `?paged=1` over a built index. First batch: `{ view }`, and no rows: the page reads the index's rows a
   * window at a time (the `chats.window` read, `view` naming this listing) while the folder check runs. `null`
   * (the check found the folder changed): the folder's rows follow, in full, replacing the windows and the
   * folder problems once the stream ends.
   */
  paged?: { view: string } | null;
}

/**
 * A window of the chat list read from the index (`server/views/chat-window.ts`): the counts, the options of
 * the filters and the groups for the whole list as filtered, and the rows at places `from` onwards of the
 * list as shown (grouped: group after group, headings not counted).
 */
export interface ChatWindow {
  /** False when the index cannot serve the list (not built, or not readable): the page lists the folder. */
  built: boolean;
  /** The refresh the rows were read under: a window read under another one belongs to another list. */
  refreshedAt: string | null;
  /** Chats in the index, and those the filters keep. */
  total: number;
  shown: number;
  withProblems: number;
  groupOptions: { group: string; label: string }[];
  formats: number[];
  /** Grouped: each group the filters keep, in the table's order, with its label and count; else null. */
  groups: { group: string; label: string; count: number }[] | null;
  from: number;
  rows: ChatRow[];
}

/** A lock as the page shows it (the file's raw content stays on the server). */
export type LockView = Omit<LockStatus, "raw">;

/** One line as sent to the page: the text, parsed on the client. */
export interface LineView {
  n: number;
  offset: number;
  raw: string;
  error?: string;
  /** Set for a line over the line limit: its full length (`raw` is its head). */
  length?: number;
}

/** A page of a log's lines (`server/views/chat-inspector.ts`). */
export interface LinesView {
  lines: LineView[];
  total: number | null;
  tail: TailReport | null;
  error: string | null;
  generation: string;
}

/** The log's line count and tail (the index, extended when the log grew) and the lock now (`server/views/chat-inspector.ts`). */
export interface StatusView {
  lines: number;
  decompressedBytes: number;
  bytes: number;
  tail: TailReport;
  error: string | null;
  lock: LockView;
}
