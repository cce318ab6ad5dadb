import { closeSync, readSync } from "node:fs";
import { compress as compressFrame } from "@mongodb-js/zstd";
import { type ChatDetails, DetailsBuilder, type DetailsRebuild, type RebuiltLog } from "../chats/details";
import { LineSplitter, parseObject } from "../chats/lines";
import { BULK_BATCH_OUTPUT, type LogEnd, openLogFile, streamLog } from "../chats/log-stream";
import { withRawLog } from "../chats/problem";
import { isOdaError, OdaError } from "../errors";
import { dropEventText } from "./drop-text";
import { LongLine } from "./long-line";
import { type ReadAhead, replay } from "./read-ahead";
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

/**
 * True when redacting the line would change it (its strings looked at decoded). `bytes`: the line as read; a
 * line of ASCII characters without an escape is scanned as its bytes (faster than as a string).
 */
export function lineTouches(text: string, redactor: Redactor, bytes?: Uint8Array): boolean {
  const plain = bytes !== undefined && bytes.length === text.length && !text.includes("\\");
  return plain ? redactor.touches(text, bytes) : redactor.touches(decodedView(text));
}

/**
 * One line's text redacted (and its texts dropped); a line that is not a JSON object is redacted as text.
 * Each string is redacted as it reads decoded, and only a string that changed is encoded again: numbers,
 * spacing, key order and every other string's escapes stay byte for byte. `bytes`: the line as read (`lineTouches`).
 */
export function redactLine(text: string, redactor: Redactor, dropText: boolean, bytes?: Uint8Array): string {
  if (dropText) {
    const json = parseObject(text);
    return json ? JSON.stringify(redactor.redactJson(dropEventText(json))) : redactor.redactText(text);
  }
  if (!lineTouches(text, redactor, bytes)) return text;
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
  /** With `rebuild`: what the reader finds in the original log (the doctor's view of it), from the same read. */
  rebuilt: RebuiltLog | null;
  /**
   * With `lazy`: the first change came where the lines before it could not be had from the original's frames
   * (a line running over a frame boundary held past the limit); nothing usable was written, and the log must be
   * redacted again without `lazy`. Never set otherwise.
   */
  again: boolean;
}

/** Options for `redactLog`. */
export interface RedactLogOptions {
  compressed: boolean;
  redactor: Redactor;
  dropText: boolean;
  /**
   * Fed with every line of the original as it is read (the doctor's rebuild of a log's details, its bad and
   * long lines, its tail): the report and the redaction are made from one decode.
   */
  rebuild?: DetailsRebuild;
  /**
   * Writes nothing until the first line that changes: a large log with nothing to replace is only read,
   * never encoded again. At the first change, the original's bytes before it are copied as they are (whole
   * zstd frames, or a plain log's bytes) and the rest is written as usual, so the log is still decoded once.
   */
  lazy?: boolean;
  /** Counts each decode of a log (tests: a log is decoded once per bundle). */
  onDecode?: (source: string) => void;
  /** The log as read ahead (`lib/bundle/read-ahead.ts`): its pieces, taken in place of a read (never `lazy`). */
  ahead?: ReadAhead;
}

/** Decoded bytes held, while nothing has changed yet, to start writing from the last frame boundary. */
const LAZY_HOLD_BYTES = 32 * 1024 * 1024;

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
  options: RedactLogOptions,
): Promise<RedactedLog> {
  const { redactor, dropText, rebuild } = options;
  const builder = new DetailsBuilder();
  // Lines that come out as they went in are kept as their bytes: never decoded and encoded again.
  let batch: Buffer[] = [];
  let batchBytes = 0;
  let changed = false;
  let bytes = 0;
  // Lazy: nothing is kept until `startWriting`; `held` are the decoded pieces since `anchor`, a frame boundary at
  // or before the start of the line in progress (`later`: boundaries met inside that line).
  let writing = !options.lazy || out === null;
  let anchor: { dec: number; comp: number } | null = { dec: 0, comp: 0 };
  let later: { dec: number; comp: number }[] = [];
  let held: { dec: number; data: Buffer }[] = [];
  let heldBytes = 0;
  let again = false;
  const keepBytes = (data: Buffer) => {
    if (!out || !writing) return;
    batch.push(data);
    batchBytes += data.length;
  };
  const keep = (text: string) => {
    if (out && writing) keepBytes(Buffer.from(text));
  };
  const NEWLINE = Buffer.from("\n");
  let long: LongLine | null = null;
  const endLong = () => {
    long?.end();
    if (long?.changed) changed = true;
    long = null;
  };
  const write = (data: Buffer) => {
    out?.write(data);
    bytes += data.length;
  };
  const ahead = options.ahead && !options.lazy && !options.ahead.gaveUp ? options.ahead : null;
  if (ahead && ahead.openError !== undefined) throw ahead.openError;
  // Read ahead: no descriptor is needed (only a lazy start copies the original's bytes).
  const open = ahead ? null : openLogFile(source);
  options.onDecode?.(source);
  /**
   * Lazy: from here on everything is written. The original's bytes before decoded offset `at` (a line start) go
   * in as they are: a plain log's bytes, or a compressed log's whole frames up to the anchor and the held decoded
   * bytes after it (encoded with the lines that follow). False when they cannot be had (see `again`).
   */
  const startWriting = (at: number): boolean => {
    if (writing) return true;
    writing = true;
    if (!out) return true;
    if (!open) throw new Error("a log read ahead is never read lazily");
    if (!options.compressed) {
      copyRaw(source, open.fd, 0, at, write);
      return true;
    }
    if (!anchor || anchor.dec > at) {
      again = true;
      return false;
    }
    copyRaw(source, open.fd, 0, anchor.comp, write);
    for (const h of held) {
      const from = Math.max(0, anchor.dec - h.dec);
      const to = Math.min(h.data.length, at - h.dec);
      if (to > from) keepBytes(h.data.subarray(from, to));
    }
    held = [];
    heldBytes = 0;
    return true;
  };
  const splitter = new LineSplitter(0, 0, undefined, (piece) => {
    if (!long) {
      // A line over the limit is redacted as it streams by: written from its first piece.
      if (!startWriting(splitter.lineStart)) throw new LazyRestart();
      long = new LongLine(redactor, dropText, keep);
    }
    long.push(piece);
  });
  const flush = async () => {
    if (!batch.length) return;
    const plain = Buffer.concat(batch);
    batch = [];
    batchBytes = 0;
    write(options.compressed ? await compressFrame(plain, 3) : plain);
  };
  /** Lazy: the line in progress now starts at `lineStart`; boundaries at or before it become the anchor. */
  const advance = (lineStart: number) => {
    if (writing || !options.compressed) return;
    while (later.length && (later[0] as { dec: number }).dec <= lineStart) anchor = later.shift() ?? anchor;
    if (!anchor) return;
    const dec = anchor.dec;
    while (held.length && (held[0] as { dec: number; data: Buffer }).dec + (held[0]?.data.length ?? 0) <= dec)
      heldBytes -= held.shift()?.data.length ?? 0;
  };
  const take = (line: Buffer, ended: boolean, n: number, offset: number, length: number) => {
    const text = line.toString("utf8");
    const original = ended && (rebuild || (out && writing)) ? parseObject(text) : null;
    if (ended) rebuild?.add(n, offset, line, length, original);
    const redacted = redactLine(text, redactor, dropText, line);
    const same = redacted === text;
    if (!same) {
      changed = true;
      if (!startWriting(offset)) throw new LazyRestart();
    }
    if (!out || !writing) return;
    if (ended) {
      // As rebuildDetails reads a log: complete lines that are JSON objects count.
      const json = same ? original : parseObject(redacted);
      if (json) builder.add(json);
    }
    // The splitter's buffer is reused: an unchanged line is copied before it is kept.
    keepBytes(same ? Buffer.from(line) : Buffer.from(redacted));
    if (ended) keepBytes(NEWLINE);
  };
  let unreadable: string | null = null;
  let end: LogEnd | null = null;
  try {
    try {
      const items = ahead
        ? replay(ahead)
        : streamLog(source, {
            compressed: options.compressed,
            batchOutput: BULK_BATCH_OUTPUT,
            open: open ?? undefined,
          });
      for await (const item of items) {
        if (item.type === "end") {
          end = item;
          // The unfinished tail (a line with no `\n`, or what a cut frame held) stays unfinished.
          const restBytes = splitter.pending();
          const rest = restBytes.toString("utf8");
          if (item.cut && options.compressed) {
            // A cut frame stays a cut frame (a support person must see that problem), made anew from the
            // redacted piece: the original's compressed bytes could still hold a secret. A tail over the
            // line limit goes out in complete frames before a cut frame of one space.
            if (!startWriting(splitter.lineStart)) throw new LazyRestart();
            endLong();
            await flush();
            const piece = redactLine(rest, redactor, dropText) || " ";
            const frame = await compressFrame(Buffer.from(piece), 3);
            write(frame.subarray(0, Math.max(6, frame.length - 4)));
            changed = true;
          } else if (splitter.inLongLine) endLong();
          else if (restBytes.length) take(restBytes, false, splitter.lines + 1, splitter.lineStart, restBytes.length);
          break;
        }
        if (!writing && options.compressed) {
          if (item.comp !== null) {
            if (splitter.atLineStart && splitter.offset === item.dec) {
              anchor = { dec: item.dec, comp: item.comp };
              later = [];
              held = [];
              heldBytes = 0;
            } else if (anchor) later.push({ dec: item.dec, comp: item.comp });
          }
          if (anchor) {
            held.push({ dec: item.dec, data: item.data });
            heldBytes += item.data.length;
            // A line running over frame boundaries for this long: no frame to start from (see `again`).
            if (heldBytes > LAZY_HOLD_BYTES) {
              anchor = null;
              later = [];
              held = [];
              heldBytes = 0;
            }
          }
        }
        splitter.push(item.data, (n, offset, line, length) => {
          // A line over the limit was handed to `long` piece by piece; it ends here (and, as the reader
          // does with such a line, it is no part of the details).
          if (line.length < length) {
            rebuild?.add(n, offset, line, length, null);
            endLong();
            keep("\n");
          } else take(line, true, n, offset, length);
          advance(offset + length + 1);
          return true;
        });
        if (batchBytes >= FRAME_BYTES) await flush();
      }
    } catch (error) {
      if (!isOdaError(error)) throw error;
      // A log that cannot be decoded past some point keeps every line before it (the doctor report says
      // where and why); its undecodable rest could hold anything, so it never goes in as it is.
      unreadable = error.message;
      if (!startWriting(splitter.lineStart)) throw new LazyRestart();
      endLong();
      changed = true;
    }
    await flush();
  } catch (error) {
    if (!(error instanceof LazyRestart)) throw error;
  } finally {
    if (open) closeSync(open.fd);
  }
  // And it stays a log that cannot be read past its last good frame: bytes where no zstd frame starts take the
  // place of the rest (a frame corrupted inside reads as this one problem too, at the same line).
  if (!again && unreadable !== null && options.compressed) write(NO_FRAME);
  return {
    changed,
    lines: splitter.lines,
    bytes,
    details: builder.result(),
    unreadable,
    rebuilt: rebuild && !again ? rebuild.result(source, splitter, end, unreadable) : null,
    again,
  };
}

/** Thrown inside `redactLog` when a lazy start cannot be made (see `RedactedLog.again`). */
class LazyRestart extends Error {}

/** Copies bytes [from, to) of a file, as they are, through `write` (in pieces of 4 MiB). */
function copyRaw(source: string, fd: number, from: number, to: number, write: (data: Buffer) => void): void {
  const PIECE = 4 * 1024 * 1024;
  for (let at = from; at < to; ) {
    const buf = Buffer.allocUnsafe(Math.min(PIECE, to - at));
    const n = readSync(fd, buf, 0, buf.length, at);
    if (n <= 0) throw new OdaError("conflict", withRawLog(`${source} was cut shorter while it was bundled.`, source));
    write(n === buf.length ? buf : buf.subarray(0, n));
    at += n;
  }
}
