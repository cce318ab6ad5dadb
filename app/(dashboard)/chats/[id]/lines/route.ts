import { z } from "zod";
import { chatIdFromRequest, errorResponse, linesFor } from "@/server/chat-inspector";
import { guardRoute } from "@/server/guard";

export const dynamic = "force-dynamic";

const ZQuery = z.object({
  from: z.coerce.number().int().min(-100_000).max(Number.MAX_SAFE_INTEGER),
  count: z.coerce.number().int().min(1).max(1000),
  generation: z.string().min(1).max(200).optional(),
});

/**
 * Lines of a chat's log, a page at a time (`?from=N&count=K[&generation=name]`).
 * A route handler rather than a server action: the page asks for several pages
 * at once while it scrolls, and server actions run one after another.
 */
export async function GET(request: Request): Promise<Response> {
  const refused = await guardRoute(request);
  if (refused) return refused;
  const id = chatIdFromRequest(request);
  const url = new URL(request.url);
  const query = ZQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) {
    return Response.json({ error: { code: "bad_input", message: "The request was not valid." } }, { status: 400 });
  }
  try {
    const { from, count, generation } = query.data;
    return Response.json(await linesFor(id, from, count, generation), {
      headers: { "cache-control": "no-store" },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
