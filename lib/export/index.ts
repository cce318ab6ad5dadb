/**
 * `lib/export`: one chat written out for reading elsewhere (issue 29):
 * Markdown, one self-contained HTML file, or JSONL, streamed line by line,
 * optionally redacted with the support bundle's redactor.
 *
 * - `exportChat(chunks, sink, {format, id, logName, redactor?, onProgress?})`.
 * - `lineMarkdown`, `lineHtml`: one line's piece of an export.
 */

export {
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportOptions,
  type ExportResult,
  type ExportSink,
  exportChat,
} from "./chat-export";
export { lineHtml, lineMarkdown } from "./render";
