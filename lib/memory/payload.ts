import { OdaError } from "../errors";
import { realRootOf } from "../fs";
import { countCodePoints, describePayloadNote, estimateTokens, type PayloadItem, renderPayload } from "./format";
import { type ChatTokens, chatPlace, fullestChat } from "./fullest";
import type { Limits } from "./limits";
import { listSet, type MemorySet, type MemorySummary } from "./list-set";
import { MESSAGES } from "./messages";
import { assertWorkspace, type MemoryId, type WorkspaceKey } from "./names";
import { type SetSize, setSize, workspaceSizes } from "./set-sizes";
import { readSettings } from "./settings";

/** A memory left out of a chat's payload, and why. */
export interface ExcludedMemory {
  id: string;
  workspace: string | null;
  title?: string;
  reason: "off" | "problem";
  message?: string;
}

/** What a chat in a workspace (or none) receives. */
export interface ChatPayload {
  workspace: string | null;
  text: string;
  tokens: number;
  limit: number;
  /** In payload order: the global set, then the workspace's. */
  included: (PayloadItem & { workspace: string | null })[];
  excluded: ExcludedMemory[];
}

function sendable(set: MemorySet): MemorySummary[] {
  return set.memories.filter((m) => m.enabled);
}

function excludedOf(set: MemorySet): ExcludedMemory[] {
  return [
    ...set.memories
      .filter((m) => !m.enabled)
      .map((m) => ({ id: m.id, workspace: set.workspace, title: m.title, reason: "off" as const })),
    ...set.problems.map((p) => ({
      id: p.id,
      workspace: set.workspace,
      reason: "problem" as const,
      message: p.message,
    })),
  ];
}

/** The payload of a chat from already-read sets. */
export function buildPayload(global: MemorySet, workspaceSet: MemorySet | null, limit: number): ChatPayload {
  const included = [...sendable(global), ...(workspaceSet ? sendable(workspaceSet) : [])].map((m) => ({
    id: m.id,
    workspace: m.workspace,
    title: m.title,
    text: m.text,
  }));
  const text = renderPayload(included);
  return {
    workspace: workspaceSet?.workspace ?? null,
    text,
    tokens: estimateTokens(text),
    limit,
    included,
    excluded: [...excludedOf(global), ...(workspaceSet ? excludedOf(workspaceSet) : [])],
  };
}

/** What a chat in `workspace` (null: no workspace) receives, and its token estimate. */
export async function chatPayload(home: string, workspace: string | null): Promise<ChatPayload> {
  assertWorkspace(workspace);
  const { limits } = await readSettings(home);
  const [global, ws] = await Promise.all([
    listSet(home, null, { limits }),
    workspace === null ? Promise.resolve(null) : listSet(home, workspace, { limits }),
  ]);
  return buildPayload(global, ws, limits.chatMaxTokens);
}

/**
 * The note a running chat is sent after a change, from the payload it had and
 * the one it has now; null when nothing differs.
 */
export function payloadNote(
  before: Pick<ChatPayload, "included">,
  after: Pick<ChatPayload, "included">,
): string | null {
  return describePayloadNote(before.included, after.included);
}

/** One bar of the overview: a chat's payload split into its global and workspace parts. */
export interface TokenBudget {
  /** null: chats with no workspace. */
  workspace: string | null;
  globalTokens: number;
  workspaceTokens: number;
  tokens: number;
  limit: number;
}

/** Code points of the payload of two parts joined by one empty line. */
function joinedCodePoints(a: number, b: number): number {
  return a && b ? a + 2 + b : a + b;
}

/** Code points of a set's part of the payload (its blocks joined by one empty line: 2 code points each). */
function partCodePoints(s: Pick<SetSize, "blocks" | "count">): number {
  return s.count ? s.blocks + 2 * (s.count - 1) : 0;
}

/** Every chat's payload size: no workspace first, then each workspace. */
export async function tokenBudgets(home: string): Promise<TokenBudget[]> {
  const { limits } = await readSettings(home);
  const realHome = realRootOf(home);
  const [global, workspaces] = await Promise.all([
    setSize(home, null, limits, realHome),
    workspaceSizes(home, limits, realHome),
  ]);
  const g = partCodePoints(global);
  const budgets: TokenBudget[] = [
    {
      workspace: null,
      globalTokens: Math.ceil(g / 4),
      workspaceTokens: 0,
      tokens: Math.ceil(g / 4),
      limit: limits.chatMaxTokens,
    },
  ];
  for (const { key, size } of workspaces) {
    const w = partCodePoints(size);
    budgets.push({
      workspace: key,
      globalTokens: Math.ceil(g / 4),
      workspaceTokens: Math.ceil(w / 4),
      tokens: Math.ceil(joinedCodePoints(g, w) / 4),
      limit: limits.chatMaxTokens,
    });
  }
  return budgets;
}

/** What a token check needs of a change: all of it is in the change's `Context` already. */
export interface TokenCheck {
  home: string;
  /** The home's real path, resolved once for the change. */
  realHome: Promise<string>;
  limits: Limits;
  place: { workspace: WorkspaceKey; id: MemoryId };
}

/**
 * Refuses a change that would take what any affected chat receives over
 * `chatMaxTokens`: `next` replaces memory `id` of the set (null: it is no
 * longer sent). A global memory affects chats with no workspace and every
 * workspace. A chat already over the limit is refused only if it would grow.
 *
 * Only sizes are computed: each set's sendable blocks from the parse cache
 * (one stat per file, a read only for a file changed since it was last read),
 * then arithmetic. A global change that does not grow the global part cannot
 * grow any chat, so the workspaces are not even looked at then.
 */
export async function checkTokenLimit(
  ctx: TokenCheck,
  next: { title: string; text: string; created?: string } | null,
): Promise<void> {
  const { home, limits, realHome } = ctx;
  const { workspace, id } = ctx.place;
  const limit = limits.chatMaxTokens;
  // Every chat pushed over the limit is collected, and the fullest is named (as the editor's counter does).
  const over: ChatTokens[] = [];
  const check = (where: string | null, before: number, after: number) => {
    const tokens = Math.ceil(after / 4);
    if (tokens > limit && after > before) over.push({ workspace: where, tokens });
  };
  const refuse = () => {
    const worst = fullestChat(over);
    if (worst) throw new OdaError("refused", MESSAGES.overTokens(chatPlace(worst.workspace), worst.tokens, limit));
  };
  const nextBlock = next ? countCodePoints(next.title) + countCodePoints(next.text) + 4 : 0;
  const swapped = (s: SetSize) => {
    const old = s.byId.get(id);
    return partCodePoints({
      blocks: s.blocks - (old ?? 0) + nextBlock,
      count: s.count - (old === undefined ? 0 : 1) + (next ? 1 : 0),
    });
  };
  if (workspace !== null) {
    const [global, ws] = await Promise.all([
      setSize(home, null, limits, realHome),
      setSize(home, workspace, limits, realHome),
    ]);
    const g = partCodePoints(global);
    check(workspace, joinedCodePoints(g, partCodePoints(ws)), joinedCodePoints(g, swapped(ws)));
    return refuse();
  }
  const global = await setSize(home, null, limits, realHome);
  const gBefore = partCodePoints(global);
  const gAfter = swapped(global);
  check(null, gBefore, gAfter);
  // joinedCodePoints is increasing in its first part: no chat grows unless the global part does
  if (gAfter <= gBefore) return refuse();
  for (const { key, size } of await workspaceSizes(home, limits, realHome)) {
    const w = partCodePoints(size);
    check(key, joinedCodePoints(gBefore, w), joinedCodePoints(gAfter, w));
  }
  refuse();
}
