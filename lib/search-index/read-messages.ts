import type { SeekPoint } from "../chats";
import type { IndexedChat, SeenChat } from "./scan";
import type { PackedBlock } from "./texts";
import type { UsageRows } from "./usage";

/**
 * What a chat's re-read (`chat-read.ts`, on a reader thread) and its log
 * reading (`log-reader.ts`) pass between them and to the refresh's writer:
 * plain data that crosses threads. A module of its own so that neither
 * imports the other.
 */

/** What the refresh knows of a chat to re-read. */
export interface ReadTask {
  seen: SeenChat;
  row: IndexedChat | null;
  compress: boolean;
  /** The index's log folder (summaries are kept relative to it). */
  logDir: string;
}

/** Only the summary changed (same log file, same size and time). */
export interface SummaryMessage {
  kind: "summary";
  fields: Record<string, unknown>;
  /** The summary's own problems, and whether its tail is unknown (then bad lines count as problems). */
  summaryProblems: number;
  tailUnknown: boolean;
}

/** A batch of entries, with the chat's row as it stands after them. */
export interface BatchMessage {
  kind: "batch";
  mode: "append" | "full";
  /** Every column the row upsert takes. */
  fields: Record<string, unknown>;
  lines: number[];
  /** Each entry's role and time in their stored forms (`entry-codec.ts`). */
  roles: (number | string)[];
  ts: (number | string | null)[];
  texts: string[];
  /** The stored texts' blocks; an entry in none is read back from the log (`log-texts.ts`) from `seeks`. */
  blocks: PackedBlock[];
  seeks: SeekPoint[];
  usage: UsageRows;
  /** Log lines read since the previous batch. */
  linesRead: number;
}

export type ReadMessage = SummaryMessage | BatchMessage;

/** A chat's problem count: its summary's, a text error, and bad lines when the tail was not judged. */
export function problemCount(summaryProblems: number, tailUnknown: boolean, textError: unknown, badLines: number) {
  return summaryProblems + (textError ? 1 : 0) + (tailUnknown ? badLines : 0);
}
