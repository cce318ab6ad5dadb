import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { freshHomePerTest } from "../../test-support/memory/test-home";
import {
  bulkChange,
  changeMemory,
  createMemory,
  deleteMemory,
  findMemory,
  restoreDeleted,
  restoreVersion,
  saveRawMemoryFile,
  setEnabled,
  undoChatChange,
} from ".";

let home: string;
freshHomePerTest((h) => (home = h));

// The sentences every entry refused a bad name with before the names were checked once, at the entry.
const BAD_WORKSPACE = {
  code: "invalid_name",
  message:
    '"../outside" is not a workspace key: letters, digits, dots, underscores and hyphens, beginning with a letter or digit.',
};
const BAD_ID = { code: "invalid_name", message: '"../x" is not a memory id: an id is eight characters, 0-9 and a-f.' };
const ID = "0123abcd";

/** Every memory change, called with a workspace and an id. */
const entries: [string, (ws: string | null, id: string) => Promise<unknown>][] = [
  ["create", (ws, id) => createMemory(home, ws, { title: "t", text: "x" }, { id })],
  ["change", (ws, id) => changeMemory(home, ws, id, { title: "t" })],
  ["change (nothing to change)", (ws, id) => changeMemory(home, ws, id, {})],
  ["turn on", (ws, id) => setEnabled(home, ws, id, true)],
  ["delete", (ws, id) => deleteMemory(home, ws, id)],
  ["restore a version", (ws, id) => restoreVersion(home, ws, id, "x")],
  ["restore a deleted memory", (ws, id) => restoreDeleted(home, ws, id)],
  ["undo a chat change", (ws, id) => undoChatChange(home, ws, id)],
  ["save a raw file", (ws, id) => saveRawMemoryFile(home, ws, id, "---\n")],
  ["bulk", (ws, id) => bulkChange(home, [{ workspace: ws, id }], { kind: "off" })],
  ["read", (ws, id) => findMemory(home, ws, id)],
];

describe("a memory's names are checked once, at the entry", () => {
  it.each(entries)(
    "%s: a bad workspace key or id is refused with its sentence before anything is touched",
    async (_, run) => {
      await expect(run("../outside", ID)).rejects.toMatchObject(BAD_WORKSPACE);
      await expect(run(null, "../x")).rejects.toMatchObject(BAD_ID);
      // Refused before any file call: not even the lock folder was made.
      expect(await readdir(home)).toEqual([]);
    },
  );
});
