import { z } from "zod";
import { chatIdFromRequest, errorResponse, statusFor } from "@/server/chat-inspector";
import { guardRoute } from "@/server/guard";

export const dynamic = "force-dynamic";

const ZQuery = z.object({ generation: z.string().min(1).max(200).optional() });

/**
 * A chat's log now: line count, sizes, tail and lock. Polled every second in
 * follow mode; the line index is extended, not rebuilt, when the log grew.
 */
export async function GET(request: Request): Promise<Response> {
  const refused = await guardRoute(request);
  if (refused) return refused;
  const id = chatIdFromRequest(request);
  const query = ZQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) {
    return Response.json({ error: { code: "bad_input", message: "The request was not valid." } }, { status: 400 });
  }
  try {
    return Response.json(await statusFor(id, query.data.generation), {
      headers: { "cache-control": "no-store" },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
