import { z } from "zod";
import { linesFor, runChatRoute, ZCopyParam } from "@/server/views/chat-inspector";

export const dynamic = "force-dynamic";

const ZQuery = z.object({
  from: z.coerce.number().int().min(-100_000).max(Number.MAX_SAFE_INTEGER),
  count: z.coerce.number().int().min(1).max(1000),
  generation: z.string().min(1).max(200).optional(),
  /** One copy of a chat stored in two places (0-based). */
  copy: ZCopyParam,
});

/**
 * Lines of a chat's log, a page at a time (`?from=N&count=K[&generation=name][&copy=C]`).
 * A route handler rather than a server action: the page asks for several pages
 * at once while it scrolls, and server actions run one after another.
 */
export function GET(request: Request): Promise<Response> {
  return runChatRoute(request, ZQuery, async (ctx, id, { from, count, generation, copy }) =>
    Response.json(await linesFor(ctx, id, from, count, generation, copy), { headers: { "cache-control": "no-store" } }),
  );
}
