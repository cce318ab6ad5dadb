import { z } from "zod";
import { errorToData, isOdaError } from "@/lib/errors";
import { activityFor } from "@/server/views/chat-filter";
import { runChatRoute } from "@/server/views/chat-inspector";

export const dynamic = "force-dynamic";

const ZQuery = z.object({ generation: z.string().min(1).max(200).optional() });

/**
 * The chat's activity strip as NDJSON: `{"type":"progress",…}` lines while the decode worker reads the log
 * (a long log says how far it got), then one `{"type":"strip",…}`; a read that fails ends with
 * `{"type":"error","error":{code,message}}`. The buckets are made on the worker, in bounded memory.
 */
export function GET(request: Request): Promise<Response> {
  return runChatRoute(request, ZQuery, async (ctx, id, { generation }) => {
    const items = activityFor(ctx, id, generation);
    // The first item is awaited here, so a chat that cannot be read answers with its error status.
    const first = await items.next();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (value: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
        try {
          if (!first.done) send(first.value);
          for await (const item of items) send(item);
        } catch (error) {
          const data = isOdaError(error)
            ? errorToData(error)
            : { code: "unexpected", message: "The chat's activity could not be read." };
          send({ type: "error", error: { code: data.code, message: data.message } });
        }
        controller.close();
      },
      cancel() {
        void items.return(undefined);
      },
    });
    return new Response(body, {
      headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
    });
  });
}
