import { compress as compressFrame } from "@mongodb-js/zstd";
import { isOdaError } from "../errors";
import { type ChatDetails, DetailsBuilder } from "../sessions/details";
import { LineSplitter, parseObject } from "../sessions/lines";
import { streamLog } from "../sessions/log-stream";
import type { Redactor } from "./redactor";
import type { SpoolWriter } from "./spool";

/**
 * A chat log written again with its secrets replaced, as a stream: line by
 * line from the reader, out in the same form (plain or zstd frames) and under
 * the same generation's name. Every line stays one line, so line numbers hold;
 * an unfinished tail stays an unfinished tail.
 */

/** Lines are grouped into zstd frames of about this many bytes (Oda writes one or more frames per save). */
const FRAME_BYTES = 1024 * 1024;

/** The same number of bytes as `text` takes inside a JSON string, all `x`: sizes and offsets hold. */
export function fillerFor(text: string): string {
  return "x".repeat(Buffer.byteLength(JSON.stringify(text)) - 2);
}

function dropStrings(value: unknown): unknown {
  if (typeof value === "string") return fillerFor(value);
  if (Array.isArray(value)) return value.map(dropStrings);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, dropStrings(v)]));
  return value;
}

function dropPart(part: unknown): unknown {
  if (typeof part === "string") return fillerFor(part);
  if (part === null || typeof part !== "object" || Array.isArray(part)) return part;
  const p = { ...(part as Record<string, unknown>) };
  if (typeof p.text === "string") p.text = fillerFor(p.text);
  if ("input" in p) p.input = dropStrings(p.input);
  if (typeof p.content === "string") p.content = fillerFor(p.content);
  else if (Array.isArray(p.content)) p.content = p.content.map(dropPart);
  return p;
}

/** An event with every message, tool and memory text replaced; roles, times and usage kept. */
export function dropEventText(line: Record<string, unknown>): Record<string, unknown> {
  const out = { ...line };
  if (typeof out.text === "string") out.text = fillerFor(out.text);
  if (typeof out.title === "string" && out.type === "title") out.title = fillerFor(out.title);
  if (typeof out.content === "string") out.content = fillerFor(out.content);
  else if (Array.isArray(out.content)) out.content = out.content.map(dropPart);
  return out;
}

/** One line's text redacted (and its texts dropped); a line that is not a JSON object is redacted as text. */
export function redactLine(text: string, redactor: Redactor, dropText: boolean): string {
  if (!dropText && !redactor.touches(text)) return text;
  const json = parseObject(text);
  if (!json) return redactor.redactText(text);
  return JSON.stringify(redactor.redactJson(dropText ? dropEventText(json) : json));
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
    for await (const item of streamLog(source, { compressed })) {
      if (item.type === "end") {
        const rest = splitter.pending();
        return item.cut !== null || (rest.length > 0 && redactor.touches(rest.toString("utf8")));
      }
      splitter.push(item.data, (_n, _o, line) => {
        if (redactor.touches(line.toString("utf8"))) found = true;
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
 * Bounded memory whatever the log's size.
 */
export async function redactLog(
  source: string,
  out: SpoolWriter,
  options: { compressed: boolean; redactor: Redactor; dropText: boolean },
): Promise<RedactedLog> {
  const splitter = new LineSplitter();
  const builder = new DetailsBuilder();
  let batch: string[] = [];
  let batchBytes = 0;
  let changed = false;
  let bytes = 0;
  const write = (data: Buffer) => {
    out.write(data);
    bytes += data.length;
  };
  const flush = async () => {
    if (!batch.length) return;
    const plain = Buffer.from(batch.join(""));
    batch = [];
    batchBytes = 0;
    write(options.compressed ? await compressFrame(plain, 3) : plain);
  };
  const take = (text: string, ended: boolean) => {
    const redacted = redactLine(text, options.redactor, options.dropText);
    if (redacted !== text) changed = true;
    if (ended) {
      // As rebuildDetails reads a log: complete lines that are JSON objects count.
      const json = parseObject(redacted);
      if (json) builder.add(json);
    }
    batch.push(ended ? `${redacted}\n` : redacted);
    batchBytes += redacted.length;
  };
  let unreadable: string | null = null;
  try {
    for await (const item of streamLog(source, { compressed: options.compressed })) {
      if (item.type === "end") {
        // The unfinished tail (a line with no `\n`, or what a cut frame held) stays unfinished.
        const rest = splitter.pending().toString("utf8");
        if (item.cut && options.compressed) {
          // A cut frame stays a cut frame (a support person must see that problem), made anew from the
          // redacted piece: the original's compressed bytes could still hold a secret.
          await flush();
          const piece = redactLine(rest, options.redactor, options.dropText) || " ";
          const frame = await compressFrame(Buffer.from(piece), 3);
          write(frame.subarray(0, Math.max(6, frame.length - 4)));
          changed = true;
        } else if (rest.length) take(rest, false);
        break;
      }
      splitter.push(item.data, (_n, _offset, line) => {
        take(line.toString("utf8"), true);
        return true;
      });
      if (batchBytes >= FRAME_BYTES) await flush();
    }
  } catch (error) {
    if (!isOdaError(error)) throw error;
    // A log that cannot be decoded past some point keeps every line before it (the doctor report says
    // where and why); its undecodable rest could hold anything, so it never goes in as it is.
    unreadable = error.message;
    changed = true;
  }
  await flush();
  return { changed, lines: splitter.lines, bytes, details: builder.result(), unreadable };
}
