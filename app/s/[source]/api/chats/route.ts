import { guardRoute } from "@/server/access/guard";
import { ndjsonRead } from "@/server/reads/ndjson";
import { streamChatList } from "@/server/views/chat-list";

export const dynamic = "force-dynamic";

/**
 * The chat list as NDJSON: one `ChatListBatch` per line as the log folder is
 * read, so the page shows the first chats and a progress bar before the end.
 * `?batch=N` (1–1000, default 100) sets the batch size. A refusal ends the
 * stream with `{"error": {"code": …, "message": "<sentence>"}}`, the shape of an action's refusal.
 */
export async function GET(request: Request): Promise<Response> {
  const refused = await guardRoute(request);
  if (refused) return refused;
  const asked = Number(new URL(request.url).searchParams.get("batch"));
  const size = Number.isInteger(asked) && asked >= 1 && asked <= 1000 ? asked : 100;
  return ndjsonRead(request, (ctx) => streamChatList(ctx, size), {
    unexpected: "The chat list could not be read; run oda-admin doctor.",
    what: "the chat list",
  });
}
