import { OdaError } from "../errors";
import { checkTitleAndText, type FieldProblem, normaliseText, normaliseTitle } from "./format";
import { listSet, type MemorySet } from "./list-set";
import { MESSAGES } from "./messages";
import { assertMemoryId, assertWorkspace } from "./names";
import { buildPayload, type ChatPayload, payloadNote } from "./payload";
import { readSettings } from "./settings";

/** A change to preview, never saved: a new title and text, turning on or off, or deleting. */
export type PayloadChange =
  | { kind: "edit"; title: string; text: string }
  | { kind: "enabled"; enabled: boolean }
  | { kind: "delete" };

/** What a chat would receive after a change, and the note a running chat would be sent. */
export interface PayloadPreview {
  before: ChatPayload;
  after: ChatPayload;
  /** null: the chat's payload would not change, so no note is sent. */
  note: string | null;
  /** The refusals saving this edit would meet (title and text checks), empty when none. */
  problems: FieldProblem[];
}

function applyChange(set: MemorySet, id: string, change: PayloadChange): MemorySet {
  return {
    ...set,
    memories: set.memories.flatMap((m) => {
      if (m.id !== id) return [m];
      if (change.kind === "delete") return [];
      if (change.kind === "enabled") return [{ ...m, enabled: change.enabled }];
      return [{ ...m, title: normaliseTitle(change.title), text: normaliseText(change.text) }];
    }),
  };
}

/**
 * Previews, without writing anything, what a chat in `chatWorkspace` (null: no
 * workspace) would receive after `change` to memory `target`, and the note a
 * running chat would be sent (`payloadNote`). The target must be a
 * problem-free memory of the global set or of the chat's workspace.
 */
export async function previewPayloadChange(
  home: string,
  chatWorkspace: string | null,
  target: { workspace: string | null; id: string },
  change: PayloadChange,
): Promise<PayloadPreview> {
  assertWorkspace(chatWorkspace);
  assertWorkspace(target.workspace);
  assertMemoryId(target.id);
  if (target.workspace !== null && target.workspace !== chatWorkspace) {
    throw new OdaError(
      "refused",
      `The memory "${target.id}" of workspace ${target.workspace} is not sent to a chat in ${chatWorkspace === null ? "no workspace" : `workspace ${chatWorkspace}`}.`,
    );
  }
  const { limits } = await readSettings(home);
  const [global, ws] = await Promise.all([
    listSet(home, null, { limits }),
    chatWorkspace === null ? Promise.resolve(null) : listSet(home, chatWorkspace, { limits }),
  ]);
  const targetSet = target.workspace === null ? global : ws;
  if (!targetSet?.memories.some((m) => m.id === target.id))
    throw new OdaError("not_found", MESSAGES.noMemoryIn(target.id, target.workspace));
  const before = buildPayload(global, ws, limits.chatMaxTokens);
  const after =
    target.workspace === null
      ? buildPayload(applyChange(global, target.id, change), ws, limits.chatMaxTokens)
      : buildPayload(global, ws && applyChange(ws, target.id, change), limits.chatMaxTokens);
  const problems = change.kind === "edit" ? checkTitleAndText(change.title, change.text, limits) : [];
  return { before, after, note: payloadNote(before, after), problems };
}
