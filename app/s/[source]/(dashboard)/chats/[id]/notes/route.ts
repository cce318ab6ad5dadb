import { z } from "zod";
import { checkedNotes } from "@/lib/notes";
import { requireLogFolder, requireSourceRoot } from "@/server/source/context";
import { runChatRoute } from "@/server/views/chat-inspector";

export const dynamic = "force-dynamic";

/** The chat's marks and notes, each `kept` (its line reads as it did) or `lost`. */
export function GET(request: Request): Promise<Response> {
  return runChatRoute(request, z.object({}), async (ctx, id) => {
    const { logDir, compress } = requireLogFolder(ctx);
    const notes = await checkedNotes(requireSourceRoot(ctx, "state"), logDir, { chat: id, compress });
    return Response.json(notes, { headers: { "cache-control": "no-store" } });
  });
}
