import { noMemoryInSet } from "./admin-words";

/**
 * The exact sentences of the seed and the contract (`docs/file-contract.md`).
 * Tests compare them verbatim; nothing else may spell them.
 */
export const MESSAGES = {
  giveTitleOrText: "Give a new title, a new text, or both.",
  needsTitle: "A memory needs a title.",
  needsText: "A memory needs some text.",
  titleTooLong: (n: number, m: number) => `A memory title is limited to ${n} characters; this one has ${m}.`,
  textTooLong: (n: number, m: number) =>
    `A memory is limited to ${n} characters; this one has ${m}. Shorten it or split it into several memories.`,
  /**
   * The seed's sentence, as Oda's memory tool answers the assistant in a chat.
   * Oda Admin speaks to an administrator and names the set instead: `noMemoryIn`.
   */
  noMemory: (id: string) =>
    `No memory with the id "${id}" exists in this chat's memory. Call memory_list for the current ids.`,
  /** No memory `id` in the set of `workspace` (null: the global set), as the CLI and the pages say it. */
  noMemoryIn: noMemoryInSet,
  noVersion: (name: string) => `No saved version "${name}" of this memory exists.`,
  overTokens: (where: string, v: number, n: number) =>
    `This change would take the memory a chat in ${where} receives to ${v} tokens; the limit is ${n}.`,
  couldNotChange: (reason: string) => `The memory could not be changed: ${reason}`,
  unchanged: "The memory already had that title and text; nothing was saved.",
  alreadyOn: "The memory was already turned on; nothing was saved.",
  alreadyOff: "The memory was already turned off; nothing was saved.",
  conflict: "The memory could not be changed: its file changed after you opened it. Reload it and try again.",
  busy: "The memory could not be changed: another Oda Admin process is changing memories; try again in a moment.",
  hasProblem: (problem: string) =>
    `The memory could not be changed: its file has a problem and only a person fixing the file may save it. ${problem}`,
  notFromChat:
    "The memory could not be changed: its current text did not come from a chat, so there is no chat change to undo.",
  // Problems of a file, in the order they are checked.
  fileTooLarge: (n: number) => `The file is larger than ${n} bytes.`,
  cannotRead: (reason: string) => `The file cannot be read: ${reason}`,
  noFrontmatter: "The file does not start with a --- frontmatter block.",
  badYaml: (message: string) => `The frontmatter is not valid YAML: ${message}`,
  badFields: (names: string[]) => `The frontmatter fields ${names.join(", ")} are missing or invalid.`,
  overLimit: (n: number, m: number) =>
    `The memory is longer than ${n} characters or its title longer than ${m}; shorten it in the file.`,
} as const;
