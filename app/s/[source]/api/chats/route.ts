import { wireEncoder } from "@/lib/chats/list-wire";
import { CHAT_SORT_KEYS } from "@/lib/chats/views";
import { guardRoute } from "@/server/access/guard";
import { ndjsonRead } from "@/server/reads/ndjson";
import { type ChatListBatch, streamChatList } from "@/server/views/chat-list";

export const dynamic = "force-dynamic";

/**
 * The chat list as NDJSON: one `ChatListBatch` per line as the log folder is
 * read, so the page shows the first chats and a progress bar before the end.
 * `?batch=N` (1–1000, default 100) sets the batch size; `?sort=<column>&dir=asc|desc`
 * the order the index's rows come in (the table's sort; unknown values give the default); `?paged=1` sends no
 * rows over a built index, which the page then reads a window at a time (`ChatListBatch.paged`). Rows go as arrays
 * with a table of shared strings (`lib/chats/list-wire.ts`; the page decodes them). A refusal ends the
 * stream with `{"error": {"code": …, "message": "<sentence>"}}`, the shape of an action's refusal.
 */
export async function GET(request: Request): Promise<Response> {
  const refused = await guardRoute(request);
  if (refused) return refused;
  const params = new URL(request.url).searchParams;
  const asked = Number(params.get("batch"));
  const size = Number.isInteger(asked) && asked >= 1 && asked <= 1000 ? asked : 100;
  const key = CHAT_SORT_KEYS.find((k) => k === params.get("sort"));
  const dir = params.get("dir") === "asc" ? "asc" : "desc";
  return ndjsonRead(
    request,
    (ctx, gone) =>
      encoded(
        streamChatList(ctx, {
          batch: size,
          ...(key ? { order: { key, dir } } : {}),
          gone,
          paged: params.get("paged") === "1",
        }),
      ),
    {
      unexpected: "The chat list could not be read; run oda-admin doctor.",
      what: "the chat list",
    },
  );
}

/** The list's batches in their wire form, one encoder (and table of strings) for the response. */
async function* encoded(batches: AsyncGenerator<ChatListBatch>) {
  const encode = wireEncoder();
  for await (const batch of batches) yield encode(batch);
}
