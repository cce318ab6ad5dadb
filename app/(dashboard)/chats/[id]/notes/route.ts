import { z } from "zod";
import { checkedNotes } from "@/lib/notes";
import { requireLogFolder, runChatRoute } from "@/server/chat-inspector";
import { requireState } from "@/server/roots";

export const dynamic = "force-dynamic";

/** The chat's marks and notes, each `kept` (its line reads as it did) or `lost`. */
export function GET(request: Request): Promise<Response> {
  return runChatRoute(request, z.object({}), async (id) => {
    const { logDir, compress } = requireLogFolder();
    const notes = await checkedNotes(requireState(), logDir, { chat: id, compress });
    return Response.json(notes, { headers: { "cache-control": "no-store" } });
  });
}
