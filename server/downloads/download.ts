import "server-only";
import type { Readable } from "node:stream";
import { escapeControls } from "@/lib/errors";
import { errorResponse } from "@/server/views/chat-inspector";
import type { Pull } from "@/server/workers/log-worker";

/**
 * Downloads answer with their problem before a byte is sent. A log is read
 * lazily, so an undecodable one used to fail inside the response: the
 * connection dropped with nothing sent and no reason. The first chunk is read
 * before the answer is made; a failure after that errors the body stream, so
 * the download fails visibly in the browser instead of ending short and
 * looking complete.
 */

/** The first chunk read: a web stream of the rest, or the error that came before any byte. */
export async function primeStream(stream: Readable): Promise<ReadableStream<Uint8Array>> {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const bytes = (chunk: Buffer | string) => (typeof chunk === "string" ? Buffer.from(chunk) : new Uint8Array(chunk));
  let first: IteratorResult<Buffer | string>;
  try {
    first = await chunks.next();
  } catch (error) {
    stream.destroy();
    throw error;
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(bytes(first.value));
    },
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(bytes(next.value));
      } catch (error) {
        console.error("oda-admin: a download failed after its first bytes:", error);
        controller.error(error);
      }
    },
    cancel() {
      stream.destroy();
    },
  });
}

/**
 * A download decoded on the decode worker (`pullInWorker`) as a web stream:
 * each piece is asked for when the response wants more, so the worker decodes
 * no faster than the reader reads, and decoding never runs on the server's
 * thread. The first piece is read before the answer is made, as `primeStream` does.
 */
export async function primePull(pull: Pull<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  const first = await pull.next();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(first.value);
    },
    async pull(controller) {
      try {
        const next = await pull.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        console.error("oda-admin: a download failed after its first bytes:", error);
        controller.error(error);
      }
    },
    cancel() {
      pull.cancel();
    },
  });
}

/**
 * An error as a download's answer: the route's status and sentence, as plain text (what a browser shows),
 * with control characters escaped (an id with a NUL or a newline in a 404's sentence).
 */
export async function downloadErrorResponse(error: unknown): Promise<Response> {
  const json = errorResponse(error);
  const body = (await json.json()) as { error: { message: string } };
  return new Response(`${escapeControls(body.error.message)}\n`, {
    status: json.status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
