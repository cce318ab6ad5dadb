import "server-only";
import { locateChat } from "@/lib/chats";
import { isOdaError } from "@/lib/errors";
import { type ChatMemory, chatMemories } from "@/lib/memory";
import type { SourceContext } from "../source/context";

/**
 * Whether the chat a memory names is still in the log folder: `present`
 * (a chat stored in two places still exists, its page says why it cannot be
 * opened), `gone` when the log folder holds no chat with that id, `unknown`
 * when no log folder is set or a group of it cannot be looked into.
 */
export type ChatPresence = "present" | "gone" | "unknown";

/** Looks the chat up by id, never walking the log folder (see `locateChat`). */
export function chatPresence(ctx: SourceContext, id: string): ChatPresence {
  const logs = ctx.roots.logs;
  if (!logs) return "unknown";
  try {
    locateChat(logs, id);
    return "present";
  } catch (error) {
    if (!isOdaError(error)) throw error;
    if (error.code === "not_found") return "gone";
    return error.code === "refused" ? "present" : "unknown";
  }
}

/** The memories a chat saved or changed (from the history's chat versions); none when no home is set. */
export async function memoriesOfChat(ctx: SourceContext, id: string): Promise<ChatMemory[]> {
  const home = ctx.roots.home;
  return home ? chatMemories(home, id) : [];
}
