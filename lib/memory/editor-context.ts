import type { Limits } from "./limits";
import { comparePayloadOrder, listSet, type MemorySet } from "./list-set";
import { listWorkspaces } from "./listing-cache";
import { assertMemoryId, assertWorkspace } from "./names";
import { readSettings } from "./settings";

/** One memory of a chat's payload, as `renderPayload` takes it. */
export interface PayloadPiece {
  title: string;
  text: string;
}

/**
 * What one chat affected by an edit receives, split around the edited memory:
 * `renderPayload([...before, edited, ...after])` is the chat's payload with the
 * edit, `renderPayload([...before, ...after])` without the memory.
 */
export interface AffectedChat {
  /** null: chats with no workspace. */
  workspace: string | null;
  before: PayloadPiece[];
  after: PayloadPiece[];
}

/** Everything a browser needs to estimate, per keystroke, what each affected chat would receive. */
export interface EditorContext {
  limits: Limits;
  /** The chats the memory affects: for a global memory, no workspace then every workspace. */
  chats: AffectedChat[];
}

function sendableExcept(set: MemorySet | null, id: string | null) {
  return (set?.memories ?? []).filter((m) => m.enabled && m.id !== id);
}

/**
 * The other memories' payload pieces around memory `id` of a set (null: a new
 * memory, placed where one created now would go), for every chat the memory
 * affects. Payload order is the server's: the global set, then the workspace's,
 * each by `created`, then id.
 */
export async function editorContext(
  home: string,
  workspace: string | null,
  id: string | null,
  now: () => Date = () => new Date(),
): Promise<EditorContext> {
  assertWorkspace(workspace);
  if (id !== null) assertMemoryId(id);
  const { limits } = await readSettings(home);
  const global = await listSet(home, null, { limits });
  const own = workspace === null ? global : await listSet(home, workspace, { limits });
  const self = id === null ? undefined : own.memories.find((m) => m.id === id);
  const probe = { id: id ?? "", created: self ? self.created : now().toISOString() };
  const split = (set: MemorySet) => {
    const items = sendableExcept(set, id);
    const at = items.findIndex((m) => comparePayloadOrder(probe, m) < 0);
    const cut = at === -1 ? items.length : at;
    const piece = ({ title, text }: PayloadPiece) => ({ title, text });
    return { before: items.slice(0, cut).map(piece), after: items.slice(cut).map(piece) };
  };
  const pieces = (set: MemorySet | null) => sendableExcept(set, id).map(({ title, text }) => ({ title, text }));
  if (workspace !== null) {
    const { before, after } = split(own);
    return { limits, chats: [{ workspace, before: [...pieces(global), ...before], after }] };
  }
  const { before, after } = split(global);
  const chats: AffectedChat[] = [{ workspace: null, before, after }];
  for (const key of await listWorkspaces(home)) {
    chats.push({ workspace: key, before, after: [...after, ...pieces(await listSet(home, key, { limits }))] });
  }
  return { limits, chats };
}
