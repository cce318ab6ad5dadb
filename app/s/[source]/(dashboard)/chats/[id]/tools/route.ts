import { z } from "zod";
import { toolsFor } from "@/server/views/chat-filter";
import { runChatRoute } from "@/server/views/chat-inspector";

export const dynamic = "force-dynamic";

const ZQuery = z.object({ generation: z.string().min(1).max(200).optional() });

/** The tools the chat's log calls, with how many times each (`[[name, count], …]`, most called first). */
export function GET(request: Request): Promise<Response> {
  return runChatRoute(request, ZQuery, async (ctx, id, { generation }) =>
    Response.json(await toolsFor(ctx, id, generation), { headers: { "cache-control": "no-store" } }),
  );
}
