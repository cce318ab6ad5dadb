import { type LogFolder, logFolderOf } from "../lib/chats/settings";
import type { CommandContext } from "./context";

/**
 * The command's log folder and its form (`--logs`, and `sessions.compress` of `--home`'s settings). Apart
 * from `context.ts`, which every run loads: only the commands that read chats load the settings reader.
 */
export function logFolder(ctx: Pick<CommandContext, "roots">): LogFolder {
  return logFolderOf(ctx.roots);
}
