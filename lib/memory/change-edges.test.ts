import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { freshHomePerTest } from "../../test-support/memory/test-home";
import { makeClock, memoryText, putFile } from "../../test-support/memory/testing";
import {
  changeMemory,
  createMemory,
  deleteMemory,
  listDeleted,
  restoreDeleted,
  restoreVersion,
  saveRawMemoryFile,
  setEnabled,
  undoChatChange,
  writeSettings,
} from ".";

/**
 * The changes of `change.ts` at their edges: which refusals carry which code, when the token limit is
 * checked (only when a chat's payload can grow), what a restore or an undo writes back, and how a free id
 * is drawn. Each case was written for a mutant the main tests (`change.test.ts`) let through.
 */

// Ids drawn for new memories, scripted per test when needed (`randomBytes(4)` is the only use of it here).
const drawn: string[] = [];
vi.mock("node:crypto", async (original) => {
  const real = await original<typeof import("node:crypto")>();
  return {
    ...real,
    randomBytes: (n: number) => {
      const next = n === 4 ? drawn.shift() : undefined;
      return next === undefined ? real.randomBytes(n) : Buffer.from(next, "hex");
    },
  };
});

let home: string;
freshHomePerTest((h) => (home = h));

const file = (id: string) => join(home, "memory", "global", id);
const history = (id: string) => join(home, "memory-history", "global", id);
const OVER = /^This change would take the memory a chat in no workspace receives to \d+ tokens; the limit is 500\.$/;

/** A memory of about 527 tokens made under the default limits, then the chat limit lowered to 500: over it. */
async function overLimit(): Promise<string> {
  await writeSettings(home, { textMaxChars: 5000 });
  const r = await createMemory(home, null, { title: "G", text: "g".repeat(2100) }, { now: makeClock() });
  await writeSettings(home, { chatMaxTokens: 500 });
  return r.memory?.id as string;
}

describe("creating, the edges", () => {
  it("takes a given id, refuses it when taken (code refused), and checks tokens only when enabled", async () => {
    const r = await createMemory(home, null, { title: "A", text: "a" }, { id: "0000abcd" });
    expect(r.memory?.id).toBe("0000abcd");
    await expect(createMemory(home, null, { title: "B", text: "b" }, { id: "0000abcd" })).rejects.toMatchObject({
      code: "refused",
      message: 'The memory could not be changed: a memory with the id "0000abcd" already exists.',
    });
    await writeSettings(home, { chatMaxTokens: 500, textMaxChars: 5000 });
    await expect(createMemory(home, null, { title: "G", text: "g".repeat(2100) })).rejects.toThrow(OVER);
    const off = await createMemory(home, null, { title: "G", text: "g".repeat(2100), enabled: false });
    expect(off.changed).toBe(true);
  });

  it("draws ids until one has neither a file nor a history folder", async () => {
    await createMemory(home, null, { title: "A", text: "a" }, { id: "0000abcd" });
    await mkdir(history("0000abce"), { recursive: true }); // a history with no file: a deleted memory
    await putFile(home, "memory/global/0000abcf", memoryText("F", "f")); // a file with no history yet
    drawn.push("0000abcd", "0000abce", "0000abcf", "0000abd0");
    const r = await createMemory(home, null, { title: "N", text: "n" });
    expect(r.memory?.id).toBe("0000abd0");
    expect(drawn).toEqual([]);
  });
});

describe("changing, the edges", () => {
  it("turns a memory off or on alone, title and text kept", async () => {
    const r = await createMemory(home, null, { title: "A", text: "a" });
    const id = r.memory?.id as string;
    expect(await changeMemory(home, null, id, { enabled: false })).toMatchObject({
      changed: true,
      memory: { enabled: false, title: "A", text: "a" },
    });
    await expect(changeMemory(home, null, id, {})).rejects.toMatchObject({ code: "refused" });
  });

  it("checks the token limit only when a chat's payload can grow", async () => {
    const id = await overLimit();
    // shorter, or as long: never refused, though the chat is over the limit already
    expect((await changeMemory(home, null, id, { text: "g".repeat(2050) })).changed).toBe(true);
    expect((await changeMemory(home, null, id, { text: "h".repeat(2050) })).changed).toBe(true);
    expect((await changeMemory(home, null, id, { title: "H", text: "g".repeat(2050) })).changed).toBe(true);
    // longer, but turned off in the same save: never refused
    expect((await changeMemory(home, null, id, { text: "g".repeat(2060), enabled: false })).changed).toBe(true);
    // turned on, however short: checked
    await expect(changeMemory(home, null, id, { text: "g".repeat(2000), enabled: true })).rejects.toThrow(OVER);
    // longer: checked
    await setEnabled(home, null, id, false);
    await putFile(home, `memory/global/${id}`, memoryText("G", "g".repeat(2050)));
    await expect(changeMemory(home, null, id, { text: "g".repeat(2051) })).rejects.toThrow(OVER);
  });
});

describe("turning on and off, the edges", () => {
  it("turns off over the limit, turns on checked; a file with a problem is off already", async () => {
    const id = await overLimit();
    expect(await setEnabled(home, null, id, false)).toMatchObject({ changed: true, memory: { enabled: false } });
    await expect(setEnabled(home, null, id, true)).rejects.toThrow(OVER);
    await writeSettings(home, { chatMaxTokens: 8000 });
    expect(await setEnabled(home, null, id, true)).toMatchObject({ changed: true, memory: { enabled: true } });
    await putFile(home, "memory/global/0000abcd", "no frontmatter");
    expect(await setEnabled(home, null, "0000abcd", false)).toMatchObject({
      changed: false,
      message: "The memory was already turned off; nothing was saved.",
    });
    await expect(setEnabled(home, null, "0000abcd", true)).rejects.toMatchObject({ code: "refused" });
  });
});

describe("delete, restore, undo, the edges", () => {
  it("deletes a file with a problem with an empty title; an unknown id is not_found", async () => {
    await putFile(home, "memory/global/0000abcd", "no frontmatter");
    await deleteMemory(home, null, "0000abcd", { now: makeClock() });
    expect(JSON.parse(await readFile(join(history("0000abcd"), "deleted.json"), "utf8"))).toEqual({
      deletedAt: "2026-11-29T18:24:08.123Z",
      title: "",
    });
    await expect(deleteMemory(home, null, "0000beef")).rejects.toMatchObject({ code: "not_found" });
  });

  it("restores only what differs, refuses a version with a problem, and checks tokens only for one turned on", async () => {
    const r = await createMemory(home, null, { title: "A", text: "a" });
    const id = r.memory?.id as string;
    const put = (name: string, raw: string) => putFile(home, `memory-history/global/${id}/${name}`, raw);
    await put("20261101T000000000Z-chat", memoryText("A", "a"));
    expect(await restoreVersion(home, null, id, "20261101T000000000Z-chat")).toMatchObject({
      changed: false,
      message: "The memory already had that title and text; nothing was saved.",
    });
    await put("20261102T000000000Z-chat", memoryText("B", "a"));
    expect(await restoreVersion(home, null, id, "20261102T000000000Z-chat")).toMatchObject({
      changed: true,
      memory: { title: "B" },
    });
    await put("20261103T000000000Z-chat", memoryText("B", "a", "enabled: false\nsource: user\n"));
    expect(await restoreVersion(home, null, id, "20261103T000000000Z-chat")).toMatchObject({
      changed: true,
      memory: { enabled: false },
    });
    await put("20261104T000000000Z-chat", "no frontmatter");
    await expect(restoreVersion(home, null, id, "20261104T000000000Z-chat")).rejects.toMatchObject({
      code: "refused",
      message: "The memory could not be changed: The file does not start with a --- frontmatter block.",
    });
    await expect(restoreVersion(home, null, id, "20261105T000000000Z-chat")).rejects.toMatchObject({
      code: "not_found",
    });
    await writeSettings(home, { chatMaxTokens: 500, textMaxChars: 5000 });
    await put("20261106T000000000Z-chat", memoryText("G", "g".repeat(2100)));
    await expect(restoreVersion(home, null, id, "20261106T000000000Z-chat")).rejects.toThrow(OVER);
    await put("20261107T000000000Z-chat", memoryText("G", "g".repeat(2100), "enabled: false\nsource: user\n"));
    expect((await restoreVersion(home, null, id, "20261107T000000000Z-chat")).changed).toBe(true);
  });

  it("restores a deleted memory only when it is deleted and has a version", async () => {
    const r = await createMemory(home, null, { title: "A", text: "a" });
    const id = r.memory?.id as string;
    await expect(restoreDeleted(home, null, id)).rejects.toMatchObject({
      code: "refused",
      message: "The memory could not be changed: it is not deleted.",
    });
    await expect(restoreDeleted(home, null, "0000beef")).rejects.toMatchObject({
      code: "not_found",
      message: 'No memory with the id "0000beef" exists in the global set.',
    });
  });

  it("undoes a chat's new memory by deleting it; refuses what no chat wrote (refused) or what is gone (not_found)", async () => {
    const r = await createMemory(home, null, { title: "A", text: "a" }, { source: "chat", sessionId: "s-1" });
    const id = r.memory?.id as string;
    const undone = await undoChatChange(home, null, id);
    expect(undone.changed).toBe(true);
    expect(await readdir(join(home, "memory", "global"))).toEqual([]);
    await expect(undoChatChange(home, null, id)).rejects.toMatchObject({ code: "not_found" });
    const own = await createMemory(home, null, { title: "B", text: "b" });
    await expect(undoChatChange(home, null, own.memory?.id as string)).rejects.toMatchObject({ code: "refused" });
  });
});

describe("undoing the second of two chat changes", () => {
  it("writes back the first chat change's state, a chat version older than the current state", async () => {
    const now = makeClock("2026-11-29T18:24:08.123Z", 1000);
    const r = await createMemory(home, null, { title: "A", text: "by a person" }, { now });
    const id = r.memory?.id as string;
    await changeMemory(home, null, id, { text: "first chat" }, { now, source: "chat", sessionId: "s-1" });
    await changeMemory(home, null, id, { text: "second chat" }, { now, source: "chat", sessionId: "s-1" });
    expect(await undoChatChange(home, null, id, { now })).toMatchObject({
      changed: true,
      memory: { text: "first chat" },
    });
  });
});

describe("undoing a chat change made in the same millisecond as a person's save", () => {
  it("writes back the person's state, though its version has the chat change's moment", async () => {
    const moments = ["2026-11-29T18:24:08.123Z", "2026-11-29T18:24:09.000Z", "2026-11-29T18:24:09.000Z"];
    const now = () => new Date((moments.length > 1 ? moments.shift() : moments[0]) as string);
    const r = await createMemory(home, null, { title: "A", text: "first, by a person" }, { now });
    const id = r.memory?.id as string;
    await changeMemory(home, null, id, { text: "second, by a person" }, { now });
    await changeMemory(home, null, id, { text: "by a chat" }, { now, source: "chat", sessionId: "s-1" });
    expect(await undoChatChange(home, null, id, { now })).toMatchObject({
      changed: true,
      memory: { text: "second, by a person" },
    });
  });
});

describe("undoing a chat's new memory that now has a problem", () => {
  it("deletes it with no title in Recently deleted, as a person's deletion of a file with a problem", async () => {
    const r = await createMemory(
      home,
      null,
      { title: "Long", text: "l".repeat(150) },
      { source: "chat", sessionId: "s-1" },
    );
    const id = r.memory?.id as string;
    await writeSettings(home, { textMaxChars: 100 }); // the file is now over the text limit: a problem
    expect((await undoChatChange(home, null, id)).changed).toBe(true);
    expect(await listDeleted(home, null)).toMatchObject([{ id, title: "" }]);
  });
});

describe("a person's raw fix, the edges", () => {
  it("saves nothing for the same bytes, refuses a file with a problem (refused), checks tokens only when enabled", async () => {
    const raw = memoryText("A", "a");
    await putFile(home, "memory/global/0000abcd", raw);
    expect(await saveRawMemoryFile(home, null, "0000abcd", raw)).toMatchObject({
      changed: false,
      message: "The memory already had that title and text; nothing was saved.",
    });
    await expect(saveRawMemoryFile(home, null, "0000abcd", "no frontmatter")).rejects.toMatchObject({
      code: "refused",
    });
    await writeSettings(home, { chatMaxTokens: 500, textMaxChars: 5000 });
    await expect(saveRawMemoryFile(home, null, "0000abcd", memoryText("G", "g".repeat(2100)))).rejects.toThrow(OVER);
    const off = memoryText("G", "g".repeat(2100), "enabled: false\nsource: user\n");
    expect((await saveRawMemoryFile(home, null, "0000abcd", off)).changed).toBe(true);
    expect(await readFile(file("0000abcd"), "utf8")).toBe(off);
  });
});
