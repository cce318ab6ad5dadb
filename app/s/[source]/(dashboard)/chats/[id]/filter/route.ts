import { z } from "zod";
import { filteredFor, filterOf, ZFilterParams } from "@/server/views/chat-filter";
import { runChatRoute } from "@/server/views/chat-inspector";

export const dynamic = "force-dynamic";

const ZQuery = ZFilterParams.extend({
  from: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1),
  count: z.coerce.number().int().min(1).max(1000).default(200),
  generation: z.string().min(1).max(200).optional(),
});

/**
 * A page of the chat's log filtered with context (`?role=&tool=&problems=1&usage=1&q=&context=&from=`):
 * read on the decode worker from `from` with a budget, so a page of a huge log answers in bounded time and
 * memory; its `next` says where the following page starts.
 */
export function GET(request: Request): Promise<Response> {
  return runChatRoute(request, ZQuery, async (ctx, id, params) => {
    const filter = filterOf(params) ?? {};
    const page = await filteredFor(ctx, id, filter, {
      from: params.from,
      count: params.count,
      context: params.context ?? 0,
      generation: params.generation,
    });
    return Response.json(page, { headers: { "cache-control": "no-store" } });
  });
}
