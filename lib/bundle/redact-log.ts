import { compress as compressFrame } from "@mongodb-js/zstd";
import { isOdaError } from "../errors";
import { type ChatDetails, DetailsBuilder } from "../sessions/details";
import { LineSplitter, parseObject } from "../sessions/lines";
import { BULK_BATCH_OUTPUT, streamLog } from "../sessions/log-stream";
import { dropEventText } from "./drop-text";
import { LongLine } from "./long-line";
import { keyLead, type Redactor } from "./redactor";
import type { SpoolWriter } from "./spool";

/**
 * A chat log written again with its secrets replaced, as a stream: line by
 * line from the reader, out in the same form (plain or zstd frames) and under
 * the same generation's name. Every line stays one line, so line numbers hold;
 * an unfinished tail stays an unfinished tail.
 */

/** Four bytes that begin neither a zstd frame nor a skippable one. */
const NO_FRAME = Buffer.alloc(4);

/** Lines are grouped into zstd frames of about this many bytes (Oda writes one or more frames per save). */
const FRAME_BYTES = 1024 * 1024;

const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/g;
const UNESCAPED: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
// Every string of a JSON text, keys and values: outside a string a JSON text has no quote.
const STRING_TOKEN = /"(?:[^"\\]|\\.)*"/g;
const KEY_AFTER = /\s*:/y;

/**
 * A JSON line as a reader sees its strings: every escape decoded, so `"see\nghp_…"` reads as a line end
 * before the token (every rule that starts with `\b` needs one), never as the two characters `\n`.
 */
export function decodedView(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(ESCAPE, (e) => {
    const c = e[1] as string;
    return c === "u" ? String.fromCharCode(Number.parseInt(e.slice(2), 16)) : (UNESCAPED[c] ?? c);
  });
}

/** True when redacting the line would change it (its strings looked at decoded). */
export function lineTouches(text: string, redactor: Redactor): boolean {
  return redactor.touches(decodedView(text));
}

/**
 * One line's text redacted (and its texts dropped); a line that is not a JSON object is redacted as text.
 * Each string is redacted as it reads decoded, and only a string that changed is encoded again: numbers,
 * spacing, key order and every other string's escapes stay byte for byte.
 */
export function redactLine(text: string, redactor: Redactor, dropText: boolean): string {
  if (dropText) {
    const json = parseObject(text);
    return json ? JSON.stringify(redactor.redactJson(dropEventText(json))) : redactor.redactText(text);
  }
  if (!lineTouches(text, redactor)) return text;
  if (!parseObject(text)) return redactor.redactText(text);
  // The key of the value that follows (`"api_key": "…"`): it tells a rule what the value is.
  let key: string | null = null;
  let keyEnd = -1;
  return text.replace(STRING_TOKEN, (token: string, offset: number) => {
    const value = token.includes("\\") ? (JSON.parse(token) as string) : token.slice(1, -1);
    KEY_AFTER.lastIndex = offset + token.length;
    let out: string;
    if (KEY_AFTER.test(text)) {
      out = redactor.redactKey(value);
      key = value;
      keyEnd = KEY_AFTER.lastIndex;
    } else {
      const lead = key !== null && /^\s*$/.test(text.slice(keyEnd, offset)) ? keyLead(key) : "";
      out = redactor.redactText(value, lead);
      key = null;
    }
    return out === value ? token : JSON.stringify(out);
  });
}

/**
 * True when redacting would change some line of the log (or it ends in a cut
 * frame, which is always made anew). Reads only: a log with nothing to replace
 * goes into the bundle as it is, without being encoded again. Stops at the
 * first line that would change. A log that cannot be decoded to its end always
 * needs it.
 */
export async function logNeedsRedaction(source: string, compressed: boolean, redactor: Redactor): Promise<boolean> {
  if (redactor.off) return false;
  const splitter = new LineSplitter();
  let found = false;
  try {
    for await (const item of streamLog(source, { compressed, batchOutput: BULK_BATCH_OUTPUT })) {
      if (item.type === "end") {
        const rest = splitter.pending();
        return (
          item.cut !== null || splitter.inLongLine || (rest.length > 0 && lineTouches(rest.toString("utf8"), redactor))
        );
      }
      splitter.push(item.data, (_n, _o, line, length) => {
        // Only the head of a line over the limit is seen here: such a line is always redacted in full.
        if (line.length < length || lineTouches(line.toString("utf8"), redactor)) found = true;
        return !found;
      });
      if (found) return true;
    }
  } catch (error) {
    if (!isOdaError(error)) throw error;
    return true; // what cannot be decoded cannot be checked: only the lines before it go in
  }
  return found;
}

/** What `redactLog` wrote. */
export interface RedactedLog {
  /** False when every line came out as it went in: the original file can go in byte for byte. */
  changed: boolean;
  lines: number;
  bytes: number;
  /** The chat details of the lines written (what a checkpoint of the new log holds). */
  details: ChatDetails;
  /** Set when decoding stopped early: the sentence saying why (only the lines before it were written). */
  unreadable: string | null;
}

/**
 * Streams `source` redacted into `out`, in one pass: lines are redacted,
 * encoded and written as they are read, and the details a checkpoint needs
 * are gathered from the lines written, so the new log is never read back.
 * Bounded memory whatever the log's size: a line over the line limit is
 * redacted as it streams by (long-line.ts) and goes in whole. With `out`
 * `null` nothing is encoded or kept: the redactor only counts (the preview).
 */
export async function redactLog(
  source: string,
  out: SpoolWriter | null,
  options: { compressed: boolean; redactor: Redactor; dropText: boolean },
): Promise<RedactedLog> {
  const { redactor, dropText } = options;
  const builder = new DetailsBuilder();
  // Lines that come out as they went in are kept as their bytes: never decoded and encoded again.
  let batch: Buffer[] = [];
  let batchBytes = 0;
  let changed = false;
  let bytes = 0;
  const keepBytes = (data: Buffer) => {
    if (!out) return;
    batch.push(data);
    batchBytes += data.length;
  };
  const keep = (text: string) => {
    if (out) keepBytes(Buffer.from(text));
  };
  const NEWLINE = Buffer.from("\n");
  let long: LongLine | null = null;
  const endLong = () => {
    long?.end();
    if (long?.changed) changed = true;
    long = null;
  };
  const splitter = new LineSplitter(0, 0, undefined, (piece) => {
    long ??= new LongLine(redactor, dropText, keep);
    long.push(piece);
  });
  const write = (data: Buffer) => {
    out?.write(data);
    bytes += data.length;
  };
  const flush = async () => {
    if (!batch.length) return;
    const plain = Buffer.concat(batch);
    batch = [];
    batchBytes = 0;
    write(options.compressed ? await compressFrame(plain, 3) : plain);
  };
  const take = (line: Buffer, ended: boolean) => {
    const text = line.toString("utf8");
    const redacted = redactLine(text, redactor, dropText);
    const same = redacted === text;
    if (!same) changed = true;
    if (!out) return;
    if (ended) {
      // As rebuildDetails reads a log: complete lines that are JSON objects count.
      const json = parseObject(redacted);
      if (json) builder.add(json);
    }
    // The splitter's buffer is reused: an unchanged line is copied before it is kept.
    keepBytes(same ? Buffer.from(line) : Buffer.from(redacted));
    if (ended) keepBytes(NEWLINE);
  };
  let unreadable: string | null = null;
  try {
    for await (const item of streamLog(source, { compressed: options.compressed, batchOutput: BULK_BATCH_OUTPUT })) {
      if (item.type === "end") {
        // The unfinished tail (a line with no `\n`, or what a cut frame held) stays unfinished.
        const restBytes = splitter.pending();
        const rest = restBytes.toString("utf8");
        if (item.cut && options.compressed) {
          // A cut frame stays a cut frame (a support person must see that problem), made anew from the
          // redacted piece: the original's compressed bytes could still hold a secret. A tail over the
          // line limit goes out in complete frames before a cut frame of one space.
          endLong();
          await flush();
          const piece = redactLine(rest, redactor, dropText) || " ";
          const frame = await compressFrame(Buffer.from(piece), 3);
          write(frame.subarray(0, Math.max(6, frame.length - 4)));
          changed = true;
        } else if (splitter.inLongLine) endLong();
        else if (restBytes.length) take(restBytes, false);
        break;
      }
      splitter.push(item.data, (_n, _offset, line, length) => {
        // A line over the limit was handed to `long` piece by piece; it ends here (and, as the reader
        // does with such a line, it is no part of the details).
        if (line.length < length) {
          endLong();
          keep("\n");
        } else take(line, true);
        return true;
      });
      if (batchBytes >= FRAME_BYTES) await flush();
    }
  } catch (error) {
    if (!isOdaError(error)) throw error;
    // A log that cannot be decoded past some point keeps every line before it (the doctor report says
    // where and why); its undecodable rest could hold anything, so it never goes in as it is.
    unreadable = error.message;
    endLong();
    changed = true;
  }
  await flush();
  // And it stays a log that cannot be read past its last good frame: bytes where no zstd frame starts take the
  // place of the rest (a frame corrupted inside reads as this one problem too, at the same line).
  if (unreadable !== null && options.compressed) write(NO_FRAME);
  return { changed, lines: splitter.lines, bytes, details: builder.result(), unreadable };
}
