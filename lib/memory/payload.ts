import { OdaError } from "../errors";
import { countCodePoints, describePayloadNote, estimateTokens, type PayloadItem, renderPayload } from "./format";
import type { Limits } from "./limits";
import { MESSAGES } from "./messages";
import { assertWorkspace } from "./names";
import { readSettings } from "./settings";
import { comparePayloadOrder, listSet, listWorkspaces, type MemorySet, type MemorySummary } from "./store";

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

function setCodePoints(items: readonly { title: string; text: string }[]): number {
  return countCodePoints(renderPayload(items));
}

/** Every chat's payload size: no workspace first, then each workspace. */
export async function tokenBudgets(home: string): Promise<TokenBudget[]> {
  const { limits } = await readSettings(home);
  const keys = await listWorkspaces(home);
  const global = await listSet(home, null, { limits });
  const g = setCodePoints(sendable(global));
  const budgets: TokenBudget[] = [
    {
      workspace: null,
      globalTokens: Math.ceil(g / 4),
      workspaceTokens: 0,
      tokens: Math.ceil(g / 4),
      limit: limits.chatMaxTokens,
    },
  ];
  for (const key of keys) {
    const w = setCodePoints(sendable(await listSet(home, key, { limits })));
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

/**
 * Refuses a change that would take what any affected chat receives over
 * `chatMaxTokens`: `next` replaces memory `id` of the set (null: it is no
 * longer sent). A global memory affects chats with no workspace and every
 * workspace. A chat already over the limit is refused only if it would grow.
 */
export async function checkTokenLimit(
  home: string,
  workspace: string | null,
  id: string,
  next: { title: string; text: string; created?: string } | null,
  limits: Limits,
): Promise<void> {
  const swap = (set: MemorySet) => {
    const items: { id: string; title: string; text: string; created?: string }[] = sendable(set).filter(
      (m) => m.id !== id,
    );
    if (next) items.push({ id, ...next });
    return items.sort(comparePayloadOrder);
  };
  const limit = limits.chatMaxTokens;
  const check = (where: string, before: number, after: number) => {
    const v = Math.ceil(after / 4);
    if (v > limit && after > before) throw new OdaError("refused", MESSAGES.overTokens(where, v, limit));
  };
  const global = await listSet(home, null, { limits });
  const gBefore = setCodePoints(sendable(global));
  if (workspace !== null) {
    const ws = await listSet(home, workspace, { limits });
    const wBefore = setCodePoints(sendable(ws));
    check(
      `workspace ${workspace}`,
      joinedCodePoints(gBefore, wBefore),
      joinedCodePoints(gBefore, setCodePoints(swap(ws))),
    );
    return;
  }
  const gAfter = setCodePoints(swap(global));
  check("no workspace", gBefore, gAfter);
  for (const key of await listWorkspaces(home)) {
    const w = setCodePoints(sendable(await listSet(home, key, { limits })));
    check(`workspace ${key}`, joinedCodePoints(gBefore, w), joinedCodePoints(gAfter, w));
  }
}
