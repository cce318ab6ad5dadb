/**
 * Sentences said to an administrator (the pages, the CLI), not to a chat's
 * assistant: the contract's `memory_list` sentence is the assistant's. Browser-safe:
 * no file access here.
 */

/** The set a memory lives in, as a sentence names it. */
export function setWords(workspace: string | null): string {
  return workspace === null ? "the global set" : `workspace ${workspace}`;
}

/** No memory `id` in that set: no file, no saved version, no deletion mark. */
export const noMemoryInSet = (id: string, workspace: string | null) =>
  `No memory with the id "${id}" exists in ${setWords(workspace)}.`;
