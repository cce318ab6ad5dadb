/** What one chat would receive, in tokens. */
export interface ChatTokens {
  /** null: chats with no workspace. */
  workspace: string | null;
  tokens: number;
}

/** Orders chats as the refusal and the editor name them: no workspace first, then workspace keys. */
function compareWhere(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/**
 * The chat that would receive the most tokens; ties go to no workspace first,
 * then to the first workspace key in order. The editor's counter and the
 * server's token refusal both name this chat, so they always agree.
 */
export function fullestChat<T extends ChatTokens>(chats: readonly T[]): T | null {
  let best: T | null = null;
  for (const c of chats) {
    if (!best || c.tokens > best.tokens || (c.tokens === best.tokens && compareWhere(c.workspace, best.workspace) < 0))
      best = c;
  }
  return best;
}

/** How a refusal names a chat's place: `workspace <key>` or `no workspace`. */
export function chatPlace(workspace: string | null): string {
  return workspace === null ? "no workspace" : `workspace ${workspace}`;
}
