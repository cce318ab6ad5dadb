import { z } from "zod";
import { runChatRoute, statusFor, ZCopyParam } from "@/server/views/chat-inspector";

export const dynamic = "force-dynamic";

const ZQuery = z.object({
  generation: z.string().min(1).max(200).optional(),
  /** One copy of a chat stored in two places (0-based). */
  copy: ZCopyParam,
});

/**
 * A chat's log now: line count, sizes, tail and lock. Polled every second in
 * follow mode; the line index is extended, not rebuilt, when the log grew.
 */
export function GET(request: Request): Promise<Response> {
  return runChatRoute(request, ZQuery, async (ctx, id, { generation, copy }) =>
    Response.json(await statusFor(ctx, id, generation, copy), { headers: { "cache-control": "no-store" } }),
  );
}
