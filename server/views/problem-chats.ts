import "server-only";
import { countProblemChats as countFromIndex, startIndexRefresh } from "@/lib/search-index";
import type { SourceContext } from "@/server/source/context";
import { logFolder, streamChatList } from "@/server/views/chat-list";
import { refreshInWorker } from "@/server/workers/index-worker";

/** Chats with at least one problem, from the whole chat list (no usable index: the folder is listed). */
async function countFromList(ctx: SourceContext): Promise<number> {
  // Keyed by id: rows served from the index may be sent again once checked against the folder, and gone ones removed.
  const withProblems = new Map<string, boolean>();
  for await (const batch of streamChatList(ctx)) {
    for (const row of batch.rows) withProblems.set(row.id, row.problems.length > 0);
    for (const id of batch.update?.removed ?? []) withProblems.delete(id);
  }
  return [...withProblems.values()].filter(Boolean).length;
}

/**
 * How many chats have problems, as the chat list would show them. Counted in
 * the index (one SQL pass, no log opened); when the folder changed since the
 * last refresh, or its form did, the index is refreshed first (only the
 * changed chats are read again) so the number is never the old one; if it is
 * still behind after that, the chat list is read whole. Without a
 * built index, or when it cannot be used, the chat list is read whole (which
 * starts the first build).
 */
export async function countProblemChats(ctx: SourceContext): Promise<number> {
  const folder = logFolder(ctx);
  if (!folder) return 0;
  const { logDir, compress } = folder;
  const state = ctx.roots.state;
  if (!state) return countFromList(ctx);
  try {
    let counted = await countFromIndex(state, logDir, { compress });
    if (!counted.built) return countFromList(ctx);
    if (!counted.freshness.fresh) {
      await (await startIndexRefresh(state, logDir, { compress, runner: refreshInWorker })).wait;
      counted = await countFromIndex(state, logDir, { compress });
    }
    // Still behind (the refresh joined was one under the other form, or a chat changed meanwhile):
    // the listing is slower but never gives an old number.
    return counted.freshness.fresh ? counted.count : countFromList(ctx);
  } catch (error) {
    console.error("oda-admin: the problem count could not use the search index:", error);
    return countFromList(ctx);
  }
}
