import "server-only";
import { isOdaError } from "@/lib/errors";
import { findMemory } from "@/lib/memory";
import { isMemoryId } from "@/lib/memory/names";

/** What the editor page shows for an id: the editor, "not found", or a refusal sentence. */
export type EditorMemory =
  | {
      kind: "found";
      /** The chat that saved it (`sessionId`), set only for a memory whose `source` is `ai`. */
      chat?: string;
    }
  | { kind: "missing" }
  | { kind: "refused"; message: string };

/**
 * The editor page's data: whether the memory exists, or why it cannot be
 * opened. A refusal of the lib (a memory file that is a symlink leading
 * outside the Oda home: "That path is outside the Oda home.", as the CLI says
 * it) is shown as its sentence instead of failing the page with a 500.
 */
export async function loadEditorMemory(
  home: string | null,
  workspace: string | null,
  id: string,
): Promise<EditorMemory> {
  if (!isMemoryId(id) || !home) return { kind: "missing" };
  try {
    const found = await findMemory(home, workspace, id);
    if (!found) return { kind: "missing" };
    const chat = found.ok && found.fields.source === "ai" ? found.fields.sessionId : undefined;
    return chat === undefined ? { kind: "found" } : { kind: "found", chat };
  } catch (error) {
    if (isOdaError(error)) return { kind: "refused", message: error.message };
    throw error;
  }
}
