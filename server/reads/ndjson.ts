import "server-only";
import { errorBody, isOdaError } from "@/lib/errors";
import { systemErrorAsOda } from "@/lib/fs/system-error";
import type { SourceContext } from "@/server/source/context";
import { routeSource } from "@/server/source/edge";

/** Resolves after the I/O and timers already due: a stream read faster than it is made lets other requests in. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const NDJSON = { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" };

/** What a streamed read says when it fails: its sentence for an unexpected error, and its name in the log. */
export interface StreamFailure {
  /** The sentence an unexpected error is answered with ("The chat list could not be read; …"). */
  unexpected: string;
  /** What failed, for the server's log ("the chat list"). */
  what: string;
}

/**
 * A streamed read as NDJSON, one JSON document a line, made from the request's source (`make`). Each
 * document is read from `make`'s generator only when the client takes the one before (so a slow page holds
 * no queue on the server), and a client that goes away ends the generator, which stops its reading. It
 * also aborts `make`'s `left` signal at once: a generator waiting inside (the chat list for its folder check)
 * is ended only at its next `yield`, so what it waits for is stopped through the signal (issue 28). A
 * source that cannot be resolved (a closed bundle) answers 404; a failure while streaming ends the stream
 * with `{"error": {"code": …, "message": "<sentence>"}}`, the shape of an action's refusal.
 */
export function ndjsonRead(
  request: Request,
  make: (ctx: SourceContext, left: AbortSignal) => AsyncGenerator<unknown>,
  failure: StreamFailure,
): Response {
  const line = (value: unknown) => `${JSON.stringify(value)}\n`;
  const left = new AbortController();
  let items: AsyncGenerator<unknown>;
  try {
    items = make(routeSource(request), left.signal);
  } catch (thrown) {
    return new Response(line({ error: errorBody(systemErrorAsOda(thrown), failure.unexpected) }), {
      status: 404,
      headers: NDJSON,
    });
  }
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        // Each document on a turn of its own: a client that takes them as fast as they are made (the chat list's
        // 100,000 rows from the index) would otherwise be served in one run of promise callbacks, and every other
        // request waited for its end (16 s at 100,000 chats on a loaded machine).
        await turn();
        const next = await items.next();
        // The client went away while this document was made: the stream is closed already.
        if (left.signal.aborted) return;
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(line(next.value)));
      } catch (thrown) {
        if (left.signal.aborted) return;
        const error = systemErrorAsOda(thrown);
        if (!isOdaError(error)) console.error(`oda-admin: ${failure.what} failed:`, error);
        controller.enqueue(encoder.encode(line({ error: errorBody(error, failure.unexpected) })));
        controller.close();
      }
    },
    async cancel() {
      left.abort();
      await items.return(undefined);
    },
  });
  return new Response(body, { headers: NDJSON });
}
