import { closeSync } from "node:fs";
import { BULK_BATCH_OUTPUT, type LogChunk, type LogEnd, openLogFile, streamLog } from "../chats/log-stream";

/**
 * Reading ahead while the logs before are redacted (issue 26). The doctor asks
 * for up to 64 chats' logs at once, but a bundle redacts them one after the
 * other, in the order asked (a value learned in one log is replaced in the
 * later ones, the same placeholder for the same value), and each redaction
 * awaited its reads and its native zstd decodes: the thread sat idle most of
 * the time. A small log is now read and decoded as soon as it is asked for,
 * on the native threads, while the logs before it are redacted; its turn then
 * takes the decoded pieces as they were read. It is still decoded once: the
 * pieces are handed to `redactLog` in place of its own read of the file.
 */

/** Logs up to this size on disk are read ahead (a chat of a few turns is a few KiB). */
export const READ_AHEAD_MAX_BYTES = 256 * 1024;
/** At most this many logs read ahead and not yet redacted. */
export const READ_AHEAD_LOGS = 16;
/** A log read ahead that decodes to more than this is given up and read in its turn (a compression bomb). */
const READ_AHEAD_DECODED = 8 * 1024 * 1024;

/** A log read ahead: its pieces and end, or why reading it stopped (thrown where the read would have thrown). */
export interface ReadAhead {
  /** The open failed: thrown before the log counts as decoded, as `openLogFile` throws. */
  openError: unknown;
  items: (LogChunk | LogEnd)[];
  /** Thrown after the items, as the stream threw it. */
  error: unknown;
  /** Reading it ahead was given up: it is read in its turn. */
  gaveUp: boolean;
}

/** Reads and decodes a whole small log now (never throws: errors are kept for its turn). */
export async function readAhead(source: string, compressed: boolean): Promise<ReadAhead> {
  const out: ReadAhead = { openError: undefined, items: [], error: undefined, gaveUp: false };
  let open: ReturnType<typeof openLogFile>;
  try {
    open = openLogFile(source);
  } catch (error) {
    out.openError = error;
    return out;
  }
  let decoded = 0;
  try {
    for await (const item of streamLog(source, { compressed, batchOutput: BULK_BATCH_OUTPUT, open })) {
      out.items.push(item);
      if (item.type === "data") decoded += item.data.length;
      if (decoded > READ_AHEAD_DECODED) {
        out.items = [];
        out.gaveUp = true;
        break;
      }
    }
  } catch (error) {
    out.error = error;
  } finally {
    closeSync(open.fd);
  }
  return out;
}

/** The pieces of a log read ahead, as `streamLog` gave them, then its error if it had one. */
export async function* replay(ahead: ReadAhead): AsyncGenerator<LogChunk | LogEnd> {
  for (const item of ahead.items) yield item;
  if (ahead.error !== undefined) throw ahead.error;
}
