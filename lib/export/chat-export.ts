import { redactLine } from "../bundle/redact-log";
import type { Redactor } from "../bundle/redactor";
import { LineSplitter, parseObject } from "../chats/lines";
import { isOdaError } from "../errors";
import { htmlHead, htmlIntro, htmlTail, lineHtml, lineMarkdown } from "./render";

/** The forms a chat is exported in. */
export const EXPORT_FORMATS = ["md", "html", "jsonl"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What an export is told besides its lines. */
export interface ExportOptions {
  format: ExportFormat;
  /** The chat's id: the export's title. */
  id: string;
  /** The log exported (its generation's file name), named under the title. */
  logName: string;
  /** Replaces secrets line by line, as a support bundle does (`--redact`); none when absent. */
  redactor?: Redactor | null;
  /** Called after each piece of the log is read, with the decompressed bytes read so far. */
  onProgress?: (bytesRead: number) => void;
}

/** What `exportChat` wrote. */
export interface ExportResult {
  lines: number;
  bytesRead: number;
  /** Lines over the line limit that a redacted JSONL export left out (they were not read whole). */
  leftOut: number;
  /** Set when the log could not be read to its end: the sentence saying why (the export stops there). */
  error: string | null;
}

/** Where an export's text goes; a promise makes the export wait (back-pressure). */
export type ExportSink = (piece: string | Uint8Array) => void | Promise<void>;

/**
 * Writes one chat's log, given as its decompressed bytes, as Markdown, one
 * self-contained HTML file or JSONL, line by line: it holds one piece of the
 * log and the text made from it at a time, whatever the log's size. With a
 * redactor each line is redacted before it is rendered (JSONL keeps its lines
 * as lines). A log that stops decoding ends the export with its sentence.
 */
export async function exportChat(
  chunks: AsyncIterable<Uint8Array | string>,
  sink: ExportSink,
  options: ExportOptions,
): Promise<ExportResult> {
  const { format, redactor } = options;
  const redacting = Boolean(redactor && !redactor.off);
  const title = `Chat ${options.id}`;
  const facts = `Exported from ${options.logName}${redacting ? ", redacted" : ""}.`;
  if (format === "md") await sink(`# ${title}\n\n${facts}\n\n`);
  if (format === "html") await sink(htmlHead(title) + htmlIntro(title, facts));

  const splitter = new LineSplitter();
  let leftOut = 0;
  let bytesRead = 0;
  const render = (n: number, bytes: Buffer, length: number, finished: boolean): string => {
    const cut = length > bytes.length ? length : null;
    let text = bytes.toString("utf8");
    if (format === "jsonl") {
      if (cut !== null) {
        leftOut++;
        return "";
      }
      return (redacting && redactor ? redactLine(text, redactor, false) : text) + (finished ? "\n" : "");
    }
    if (redacting && redactor) text = cut === null ? redactLine(text, redactor, false) : redactor.redactText(text);
    const json = cut === null ? parseObject(text) : null;
    return format === "md" ? lineMarkdown(n, text, json, cut) : lineHtml(n, text, json, cut);
  };

  let error: string | null = null;
  try {
    for await (const chunk of chunks) {
      const data =
        typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
      bytesRead += data.length;
      // A JSONL export of what is not redacted is the log itself, byte for byte.
      if (format === "jsonl" && !redacting) {
        splitter.push(data);
        await sink(data);
      } else {
        const out: string[] = [];
        splitter.push(data, (n, _offset, bytes, length) => {
          out.push(render(n, bytes, length, true));
          return true;
        });
        if (out.length) await sink(out.join(""));
      }
      options.onProgress?.(bytesRead);
    }
    // An unfinished last line (Oda was writing it) is exported as it is.
    const rest = splitter.pending();
    if (rest.length && !(format === "jsonl" && !redacting))
      await sink(render(splitter.lines + 1, rest, rest.length, false));
  } catch (e) {
    if (!isOdaError(e)) throw e;
    error = e.message;
  }
  if (format === "md" && error) await sink(`> The export stops here: ${error}\n`);
  if (format === "html") await sink(htmlTail(error ? `The export stops here: ${error}` : null));
  return { lines: splitter.lines, bytesRead, leftOut, error };
}
