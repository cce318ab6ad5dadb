import { errorBody, isOdaError } from "@/lib/errors";
import { systemErrorAsOda } from "@/lib/fs/system-error";
import { guardRoute } from "@/server/access/guard";
import { routeSource } from "@/server/source/edge";
import { streamChatList } from "@/server/views/chat-list";

export const dynamic = "force-dynamic";

const UNEXPECTED = "The chat list could not be read; run oda-admin doctor.";

/**
 * The chat list as NDJSON: one `ChatListBatch` per line as the log folder is
 * read, so the page shows the first chats and a progress bar before the end.
 * `?batch=N` (1–1000, default 100) sets the batch size. A refusal ends the
 * stream with `{"error": {"code": …, "message": "<sentence>"}}`, the shape of an action's refusal.
 */
export async function GET(request: Request): Promise<Response> {
  const refused = await guardRoute(request);
  if (refused) return refused;
  let ctx: ReturnType<typeof routeSource>;
  try {
    ctx = routeSource(request);
  } catch (thrown) {
    const error = systemErrorAsOda(thrown);
    return new Response(`${JSON.stringify({ error: errorBody(error, UNEXPECTED) })}\n`, {
      status: 404,
      headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
    });
  }
  const encoder = new TextEncoder();
  const asked = Number(new URL(request.url).searchParams.get("batch"));
  const batches = streamChatList(ctx, Number.isInteger(asked) && asked >= 1 && asked <= 1000 ? asked : 100);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
      } catch (thrown) {
        const error = systemErrorAsOda(thrown);
        if (!isOdaError(error)) console.error("oda-admin: the chat list failed:", error);
        controller.enqueue(encoder.encode(`${JSON.stringify({ error: errorBody(error, UNEXPECTED) })}\n`));
        controller.close();
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return new Response(body, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
  });
}
