import "server-only";
import { isOdaError } from "@/lib/errors";
import { findMemory } from "@/lib/memory";
import { isMemoryId } from "@/lib/memory/names";

/** What the editor page shows for an id: the editor, "not found", or a refusal sentence. */
export type EditorMemory = { kind: "found" } | { kind: "missing" } | { kind: "refused"; message: string };

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
    return (await findMemory(home, workspace, id)) ? { kind: "found" } : { kind: "missing" };
  } catch (error) {
    if (isOdaError(error)) return { kind: "refused", message: error.message };
    throw error;
  }
}
