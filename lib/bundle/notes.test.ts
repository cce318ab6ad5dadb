import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testScope } from "../../test-support/bundle/test-scope";
import { CHAT_IDS, KEYWORD, plantSecrets, SECRETS } from "../../test-support/bundle/testing";
import { tempFolder } from "../../test-support/test-temp";
import { readLines } from "../chats/read";
import { addNote, checkedNotes } from "../notes";
import { createBundle } from "./create";
import { readBundle } from "./read";
import { unpackBundle } from "./unpack";

/** A planted log folder with notes on its first chat (one kept, one on a line that changed since) and its second. */
async function annotated() {
  const base = tempFolder("oda-bundle-notes-");
  const { home, logs } = await plantSecrets(base);
  const state = join(base, "state");
  mkdirSync(state);
  const chat = CHAT_IDS[0] as string;
  const first = (await readLines(logs, chat, { from: 1, count: 2 })).lines;
  const gen = (await readLines(logs, chat, { from: 1, count: 1 })).generation;
  await addNote(state, {
    chat,
    generation: gen,
    line: 1,
    lineText: first[0]?.raw as string,
    text: `Ask ${SECRETS.email} about ${KEYWORD}`,
  });
  await addNote(state, { chat, generation: gen, line: 2, lineText: "not what line 2 says", text: "" });
  const other = CHAT_IDS[2] as string;
  const line = (await readLines(logs, other, { from: 1, count: 1 })).lines[0];
  await addNote(state, {
    chat: other,
    generation: (await readLines(logs, other, { from: 1, count: 1 })).generation,
    line: 1,
    lineText: line?.raw as string,
    text: "plain note",
  });
  return { base, home, logs, state };
}

describe("bundle create --notes", () => {
  it("puts the notes in, listed and redacted, and a bundle opened shows them, kept or lost as they were", async () => {
    const { base, home, logs, state } = await annotated();
    const target = join(base, "b.tar.gz");
    const made = await createBundle({ home, logs, state }, testScope({ notes: true, keywords: [KEYWORD] }), target, {
      version: "test",
    });
    const noteFiles = made.manifest.files.filter((f) => f.path.startsWith("notes/"));
    expect(noteFiles).toHaveLength(2);
    expect(made.manifest.scope.notes).toBe(true);
    expect(made.manifest.counts.notes).toBe(2);

    const into = join(base, "read");
    await readBundle(target, into);
    for (const f of noteFiles) {
      const text = readFileSync(join(into, f.path), "utf8");
      for (const secret of [SECRETS.email, KEYWORD]) expect(text).not.toContain(secret);
    }

    const openedState = join(base, "admin");
    const opened = await unpackBundle(target, openedState);
    const notes = await checkedNotes(opened.state, opened.logs, {});
    expect(notes.map((n) => `${n.line} ${n.state} ${n.text.replace(/ .*/, "")}`).sort()).toEqual([
      "1 kept Ask",
      "1 kept plain",
      "2 lost ",
    ]);
    expect(notes.some((n) => n.text.includes(SECRETS.email) || n.text.includes(KEYWORD))).toBe(false);
    const plain = notes.find((n) => n.text === "plain note");
    expect(plain?.chat).toBe(CHAT_IDS[2]);
    const redacted = notes.find((n) => n.text.startsWith("Ask "));
    expect(redacted?.chat).not.toContain(SECRETS.email);
    // The chat's id is the one the bundle's logs know it by.
    expect((await readLines(opened.logs, redacted?.chat as string, { from: 1, count: 1 })).lines).toHaveLength(1);
  });

  it("leaves the notes out without --notes, and asks for the admin state with it", async () => {
    const { base, home, logs, state } = await annotated();
    const made = await createBundle({ home, logs, state }, testScope(), join(base, "plain.tar.gz"), {
      version: "test",
    });
    expect(made.manifest.files.some((f) => f.path.startsWith("notes/"))).toBe(false);
    const opened = await unpackBundle(join(base, "plain.tar.gz"), join(base, "admin"));
    expect(readdirSync(opened.state)).not.toContain("notes");
    await expect(
      createBundle({ home, logs, state: null }, testScope({ notes: true }), join(base, "x.tar.gz"), {
        version: "test",
      }),
    ).rejects.toThrow("Notes go into a bundle from the admin state: give it with --state DIR.");
  });
});
