import "server-only";
import { homedir, hostname } from "node:os";
import { kindsFrom, REDACT_KINDS, Redactor } from "@/lib/bundle";
import type { DownloadHead } from "@/lib/chats/worker-api";
import { type ExportFormat, exportChat } from "@/lib/export";
import { type Pull, pullInWorker } from "@/server/workers/log-worker";

/** The content type of each export form. */
const TYPES: Record<ExportFormat, string> = {
  md: "text/markdown; charset=utf-8",
  html: "text/html; charset=utf-8",
  jsonl: "application/x-ndjson; charset=utf-8",
};

/** A file name safe in Content-Disposition: the chat id's safe characters only. */
function fileNameOf(id: string, format: ExportFormat, redacted: boolean): string {
  const base = id.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100) || "chat";
  return `${base}${redacted ? "-redacted" : ""}.${format}`;
}

/** The rest of a worker pull as an async iterable (the head already read). */
function piecesOf(pull: Pull<Uint8Array>): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => pull.next(),
      return: async () => {
        pull.cancel();
        return { done: true, value: undefined };
      },
    }),
  };
}

/**
 * One chat exported as the answer to a GET (the chat page's Export menu),
 * streamed: the log is decoded on the decode worker a piece at a time, each
 * piece is rendered and sent before the next is asked for, and a reader that
 * goes away stops both. A chat that cannot be opened is refused before a byte
 * is sent; a log that stops decoding ends the file with its sentence.
 */
export async function exportResponse(
  id: string,
  logDir: string,
  options: { format: ExportFormat; redact: boolean; generation?: string; compress: boolean },
): Promise<Response> {
  const pull = pullInWorker("downloadLog", logDir, id, { generation: options.generation, compress: options.compress });
  const head = await pull.next();
  if (head.done || head.value instanceof Uint8Array) throw new Error("The decode worker sent no download head.");
  const { generation } = head.value as DownloadHead;
  const redactor = options.redact
    ? new Redactor(
        { homes: [homedir()], hosts: [hostname()], keywords: [] },
        kindsFrom({ kinds: REDACT_KINDS, keywords: [] }),
      )
    : null;
  const encoder = new TextEncoder();
  let wake: (() => void) | null = null;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const sink = async (piece: string | Uint8Array) => {
          if (cancelled) throw new Error("The export's reader went away.");
          controller.enqueue(typeof piece === "string" ? encoder.encode(piece) : piece);
          // Wait for the reader: at most a few pieces are queued, whatever the log's size.
          while (!cancelled && (controller.desiredSize ?? 1) <= 0) await new Promise<void>((r) => (wake = r));
        };
        void exportChat(piecesOf(pull as Pull<Uint8Array>), sink, {
          format: options.format,
          id,
          logName: generation,
          redactor,
        }).then(
          () => !cancelled && controller.close(),
          (error) => {
            pull.cancel();
            if (cancelled) return;
            console.error("oda-admin: an export failed after its first bytes:", error);
            controller.error(error);
          },
        );
      },
      pull() {
        wake?.();
        wake = null;
      },
      cancel() {
        cancelled = true;
        pull.cancel();
        wake?.();
      },
    },
    { highWaterMark: 4 },
  );
  return new Response(body, {
    headers: {
      "content-type": TYPES[options.format],
      "content-disposition": `attachment; filename="${fileNameOf(id, options.format, options.redact)}"`,
      "cache-control": "no-store, no-transform",
    },
  });
}
