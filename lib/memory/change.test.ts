import { readdir, readFile, stat, utimes } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { freshHomePerTest } from "../../test-support/memory/test-home";
import { makeClock, memoryText, putFile } from "../../test-support/memory/testing";
import {
  changeMemory,
  chatPayload,
  createMemory,
  deleteMemory,
  listDeleted,
  listVersions,
  readMemory,
  restoreDeleted,
  restoreVersion,
  saveRawMemoryFile,
  setEnabled,
  undoChatChange,
  writeSettings,
} from ".";

let home: string;
freshHomePerTest((h) => (home = h));

const file = (ws: string | null, id: string) => join(home, "memory", ws === null ? "global" : `workspaces/${ws}`, id);
const historyDir = (ws: string | null, id: string) =>
  join(home, "memory-history", ws === null ? "global" : `workspaces/${ws}`, id);
const historyNames = async (ws: string | null, id: string) => (await readdir(historyDir(ws, id))).sort();

async function create(
  title = "Reply language",
  text = "Reply in short bullet points.",
  ws: string | null = null,
  now = makeClock(),
) {
  const r = await createMemory(home, ws, { title, text }, { now });
  return r.memory!.id;
}

describe("creating", () => {
  it("writes the exact bytes and state.json with source settings", async () => {
    const id = await create("  Reply \n language ", "\n Reply in short bullet points.\n");
    expect(await readFile(file(null, id), "utf8")).toBe(
      "---\ntitle: Reply language\nenabled: true\nsource: user\ncreated: 2026-11-29T18:24:08.123Z\nupdated: 2026-11-29T18:24:08.123Z\n---\n\nReply in short bullet points.\n",
    );
    const state = JSON.parse(await readFile(join(historyDir(null, id), "state.json"), "utf8"));
    expect(state).toEqual({
      sha256: (await readMemory(home, null, id)).sha256,
      savedAt: "2026-11-29T18:24:08.123Z",
      source: "settings",
    });
  });

  it("writes as Oda from a chat: source ai, sessionId, state chat", async () => {
    const r = await createMemory(
      home,
      "ws1",
      { title: "T", text: "x" },
      { source: "chat", sessionId: "c-1", now: makeClock() },
    );
    expect(r.memory?.ok && [r.memory.fields.source, r.memory.fields.sessionId, r.memory.state.source]).toEqual([
      "ai",
      "c-1",
      "chat",
    ]);
  });

  it("refuses over the title or text limit with the exact sentences and writes nothing", async () => {
    await expect(createMemory(home, null, { title: "", text: "x" })).rejects.toThrow("A memory needs a title.");
    await expect(createMemory(home, null, { title: "t", text: " " })).rejects.toThrow("A memory needs some text.");
    await expect(createMemory(home, null, { title: "t".repeat(121), text: "x" })).rejects.toThrow(
      "A memory title is limited to 120 characters; this one has 121.",
    );
    await expect(createMemory(home, null, { title: "t", text: "x".repeat(2001) })).rejects.toThrow(
      "A memory is limited to 2000 characters; this one has 2001. Shorten it or split it into several memories.",
    );
    await expect(readdir(home)).resolves.toEqual([]);
  });
});

describe("the file size limit", () => {
  it("refuses a save that would write a file over fileMaxBytes, writing nothing", async () => {
    await writeSettings(home, { fileMaxBytes: 1024, textMaxChars: 5000 });
    const sentence = "The memory could not be changed: The file is larger than 1024 bytes.";
    await expect(createMemory(home, null, { title: "Big", text: "é".repeat(600) })).rejects.toThrow(sentence);
    await expect(readdir(join(home, "memory", "global")).catch(() => [])).resolves.toEqual([]);
    const id = await create("Small", "short");
    const before = await readFile(file(null, id), "utf8");
    await expect(changeMemory(home, null, id, { text: "é".repeat(600) })).rejects.toMatchObject({
      message: sentence,
      field: "text",
    });
    expect(await readFile(file(null, id), "utf8")).toBe(before);
  });
});

describe("changing", () => {
  it("refuses a change with neither title nor text", async () => {
    const id = await create();
    await expect(changeMemory(home, null, id, {})).rejects.toThrow("Give a new title, a new text, or both.");
  });

  it("refuses an unknown id naming the set, not with the chat tool's sentence", async () => {
    await expect(changeMemory(home, null, "deadbeef", { text: "x" })).rejects.toThrow(
      /^No memory with the id "deadbeef" exists in the global set\.$/,
    );
    await expect(deleteMemory(home, "reports", "deadbeef")).rejects.toThrow(
      /^No memory with the id "deadbeef" exists in workspace reports\.$/,
    );
  });

  it("saves nothing for a change that changes nothing, and says so", async () => {
    const id = await create();
    const before = await readFile(file(null, id));
    const r = await changeMemory(home, null, id, { title: " Reply  language", text: "Reply in short bullet points. " });
    expect(r).toMatchObject({
      changed: false,
      message: "The memory already had that title and text; nothing was saved.",
    });
    expect(await readFile(file(null, id))).toEqual(before);
    expect(await historyNames(null, id)).toEqual(["state.json"]);
  });

  it("keeps the replaced state as a version named from its moment and source", async () => {
    const now = makeClock("2026-11-29T18:24:08.123Z", 1000);
    const id = await create("A", "one", null, now);
    await changeMemory(home, null, id, { text: "two" }, { now, source: "chat" });
    await changeMemory(home, null, id, { title: "B" }, { now });
    expect(await historyNames(null, id)).toEqual([
      "20261129T182408123Z-settings",
      "20261129T182409123Z-chat",
      "state.json",
    ]);
    expect(await readFile(join(historyDir(null, id), "20261129T182409123Z-chat"), "utf8")).toBe(
      "---\ntitle: A\nenabled: true\nsource: user\ncreated: 2026-11-29T18:24:08.123Z\nupdated: 2026-11-29T18:24:09.123Z\n---\n\ntwo\n",
    );
    const versions = await listVersions(home, null, id);
    expect(versions.map((v) => [v.name, v.source, v.title, v.text])).toEqual([
      ["20261129T182409123Z-chat", "chat", "A", "two"],
      ["20261129T182408123Z-settings", "settings", "A", "one"],
    ]);
  });

  it("adds -2 when two versions share a moment", async () => {
    const now = makeClock("2026-11-29T18:24:08.123Z", 0);
    const id = await create("A", "one", null, now);
    await changeMemory(home, null, id, { text: "two" }, { now });
    await changeMemory(home, null, id, { text: "three" }, { now });
    expect(await historyNames(null, id)).toEqual([
      "20261129T182408123Z-settings",
      "20261129T182408123Z-settings-2",
      "state.json",
    ]);
  });

  it("keeps the same text once, as the newest version", async () => {
    const now = makeClock("2026-11-29T18:24:08.123Z", 1000);
    const id = await create("A", "one", null, now);
    await changeMemory(home, null, id, { text: "two" }, { now });
    await changeMemory(home, null, id, { text: "one" }, { now });
    await changeMemory(home, null, id, { text: "three" }, { now });
    // "one" was kept at :08 and again at :10; only the newest stays
    expect(await historyNames(null, id)).toEqual([
      "20261129T182409123Z-settings",
      "20261129T182410123Z-settings",
      "state.json",
    ]);
  });

  it("keeps only the newest versionsKept versions", async () => {
    await writeSettings(home, { versionsKept: 2 });
    const now = makeClock("2026-11-29T18:24:08.123Z", 1000);
    const id = await create("A", "v0", null, now);
    for (let i = 1; i <= 4; i++) await changeMemory(home, null, id, { text: `v${i}` }, { now });
    const versions = await listVersions(home, null, id);
    expect(versions.map((v) => v.text)).toEqual(["v3", "v2"]);
  });

  it("keeps an outside edit as an external version before the next save", async () => {
    const id = await create("A", "one");
    await putFile(home, `memory/global/${id}`, memoryText("A", "edited by hand"));
    await utimes(file(null, id), new Date("2026-11-30T10:00:00.000Z"), new Date("2026-11-30T10:00:00.000Z"));
    const m = await readMemory(home, null, id);
    expect(m.state).toEqual({ source: "external", savedAt: "2026-11-30T10:00:00.000Z" });
    await changeMemory(home, null, id, { text: "from settings" });
    expect(await readFile(join(historyDir(null, id), "20261130T100000000Z-external"), "utf8")).toBe(
      memoryText("A", "edited by hand"),
    );
  });

  it("keeps a file created outside as a found version", async () => {
    await putFile(home, "memory/global/0000abcd", memoryText("Hand made", "by hand"));
    const mtime = new Date(Math.floor((await stat(file(null, "0000abcd"))).mtimeMs));
    expect((await readMemory(home, null, "0000abcd")).state).toEqual({ source: "found", savedAt: mtime.toISOString() });
    await changeMemory(home, null, "0000abcd", { text: "changed" });
    const [v] = await listVersions(home, null, "0000abcd");
    expect([v?.source, v?.text, v?.moment]).toEqual(["found", "by hand", mtime.toISOString()]);
  });

  it("refuses when the file changed since the caller saw it, writing nothing", async () => {
    const id = await create("A", "one");
    const { sha256 } = await readMemory(home, null, id);
    await changeMemory(home, null, id, { text: "two" }, { expectedSha256: sha256 });
    const bytes = await readFile(file(null, id));
    await expect(changeMemory(home, null, id, { text: "three" }, { expectedSha256: sha256 })).rejects.toThrow(
      "The memory could not be changed: its file changed after you opened it. Reload it and try again.",
    );
    await expect(deleteMemory(home, null, id, { expectedSha256: sha256 })).rejects.toMatchObject({ code: "conflict" });
    expect(await readFile(file(null, id))).toEqual(bytes);
    expect((await listVersions(home, null, id)).length).toBe(1);
  });

  it("never rewrites a file with a problem", async () => {
    const raw = "---\ntitle: A\n---\nbroken";
    await putFile(home, "memory/global/0000abcd", raw);
    await expect(changeMemory(home, null, "0000abcd", { text: "x" })).rejects.toThrow(
      "The memory could not be changed: its file has a problem and only a person fixing the file may save it. The frontmatter fields enabled, source are missing or invalid.",
    );
    expect((await setEnabled(home, null, "0000abcd", false)).changed).toBe(false);
    expect(await readFile(file(null, "0000abcd"), "utf8")).toBe(raw);
  });

  it("saves a person's raw fix only when it then reads with no problem, keeping the old state", async () => {
    const raw = "---\ntitle: A\n---\nbroken";
    await putFile(home, "memory/global/0000abcd", raw);
    await expect(saveRawMemoryFile(home, null, "0000abcd", "---\ntitle: A\n---\nstill")).rejects.toThrow(
      "The memory could not be changed: The frontmatter fields enabled, source are missing or invalid.",
    );
    const fixed = "---\ntitle: A\nenabled: true\nsource: user\n---\n\nfixed\n";
    const r = await saveRawMemoryFile(home, null, "0000abcd", fixed);
    expect(r.changed).toBe(true);
    expect(await readFile(file(null, "0000abcd"), "utf8")).toBe(fixed);
    const [v] = await listVersions(home, null, "0000abcd");
    expect([v?.source, v?.raw]).toEqual(["found", raw]);
  });
});

describe("turning on and off", () => {
  it("turns off (never refused) and on, with a note when nothing changes", async () => {
    const id = await create();
    await writeSettings(home, { chatMaxTokens: 500 });
    expect((await setEnabled(home, null, id, false)).memory).toMatchObject({ enabled: false });
    expect((await setEnabled(home, null, id, false)).message).toBe(
      "The memory was already turned off; nothing was saved.",
    );
    expect((await chatPayload(home, null)).excluded).toEqual([
      { id, workspace: null, title: "Reply language", reason: "off" },
    ]);
    expect((await setEnabled(home, null, id, true)).memory).toMatchObject({ enabled: true });
  });
});

describe("the token limit of what every affected chat receives", () => {
  beforeEach(() => writeSettings(home, { chatMaxTokens: 500, textMaxChars: 5000 }));

  it("checks a workspace change against that workspace's chats (global part included)", async () => {
    await create("G", "g".repeat(1000)); // "## G\n" + 1000 = 1005 cp
    await create("W", "w".repeat(900), "ws1"); // + 2 + 905 = 1912 cp; W2 at 100 adds 2 + 106 → 2020 cp = 505 tokens
    const id = await create("W2", "x", "ws1");
    await expect(changeMemory(home, "ws1", id, { text: "x".repeat(100) })).rejects.toThrow(
      "This change would take the memory a chat in workspace ws1 receives to 505 tokens; the limit is 500.",
    );
  });

  it("checks a global change against chats with no workspace and every workspace", async () => {
    const g = await create("G", "g");
    await create("W", "w".repeat(1500), "big");
    await create("W", "w", "small");
    await expect(changeMemory(home, null, g, { text: "g".repeat(500) })).rejects.toThrow(
      "This change would take the memory a chat in workspace big receives to 503 tokens; the limit is 500.",
    );
    // Every chat is over then: the refusal names the fullest, as the editor's counter does (not the first checked).
    await expect(changeMemory(home, null, g, { text: "g".repeat(2000) })).rejects.toThrow(
      "This change would take the memory a chat in workspace big receives to 878 tokens; the limit is 500.",
    );
  });

  it("names the chat with no workspace first when chats tie, then workspace keys in order", async () => {
    const g = await create("G", "g");
    await create("W", "w", "b-ws");
    await create("W", "w", "a-ws");
    await expect(changeMemory(home, null, g, { text: "g".repeat(2100) })).rejects.toThrow(
      "This change would take the memory a chat in workspace a-ws receives to 529 tokens; the limit is 500.",
    );
  });

  it("turns a memory on or off in the same save as its text (the editor's draft)", async () => {
    const id = await create("G", "g");
    const off = await changeMemory(home, null, id, { title: "G", text: "g2", enabled: false });
    expect(off.changed).toBe(true);
    expect(off.memory).toMatchObject({ ok: true, enabled: false, text: "g2" });
    await expect(changeMemory(home, null, id, { title: "G", text: "g".repeat(2100), enabled: true })).rejects.toThrow(
      "This change would take the memory a chat in no workspace receives to 527 tokens; the limit is 500.",
    );
    const same = await changeMemory(home, null, id, { title: "G", text: "g2", enabled: false });
    expect(same.changed).toBe(false);
  });

  it("refuses turning on over the limit, never turning off", async () => {
    await create("G", "g".repeat(1900));
    const r = await createMemory(home, null, { title: "H", text: "h".repeat(200), enabled: false });
    const id = r.memory!.id;
    await expect(setEnabled(home, null, id, true)).rejects.toThrow(
      /^This change would take the memory a chat in no workspace receives to \d+ tokens; the limit is 500\.$/,
    );
  });
});

describe("delete, restore, undo", () => {
  it("deletes (never refused): version kept, file removed, deleted.json written", async () => {
    const now = makeClock("2026-11-29T18:24:08.123Z", 1000);
    const id = await create("A", "one", null, now);
    await deleteMemory(home, null, id, { now });
    await expect(stat(file(null, id))).rejects.toMatchObject({ code: "ENOENT" });
    expect(JSON.parse(await readFile(join(historyDir(null, id), "deleted.json"), "utf8"))).toEqual({
      deletedAt: "2026-11-29T18:24:09.123Z",
      title: "A",
    });
    expect(await listDeleted(home, null)).toEqual([
      { id, workspace: null, title: "A", deletedAt: "2026-11-29T18:24:09.123Z", text: "one", versions: 1 },
    ]);
    await expect(deleteMemory(home, null, id)).rejects.toThrow(`No memory with the id "${id}"`);
  });

  it("deletes a file with a problem too, keeping its bytes", async () => {
    await putFile(home, "memory/global/0000abcd", "no frontmatter");
    await deleteMemory(home, null, "0000abcd");
    expect((await listVersions(home, null, "0000abcd"))[0]?.raw).toBe("no frontmatter");
  });

  it("restores a deleted memory with source restore; the restore can itself be undone by restoring", async () => {
    const now = makeClock("2026-11-29T18:24:08.123Z", 1000);
    const id = await create("A", "one", null, now);
    await deleteMemory(home, null, id, { now });
    const r = await restoreDeleted(home, null, id, { now });
    expect(r.memory).toMatchObject({ text: "one", state: { source: "restore" } });
    expect(await listDeleted(home, null)).toEqual([]);
    await expect(stat(join(historyDir(null, id), "deleted.json"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("restores a version, keeping the replaced text as a version of its own", async () => {
    const now = makeClock("2026-11-29T18:24:08.123Z", 1000);
    const id = await create("A", "one", null, now);
    await changeMemory(home, null, id, { text: "two" }, { now });
    const r = await restoreVersion(home, null, id, "20261129T182408123Z-settings", { now });
    expect(r.memory).toMatchObject({ text: "one", state: { source: "restore", savedAt: "2026-11-29T18:24:10.123Z" } });
    const texts = (await listVersions(home, null, id)).map((v) => `${v.name} ${v.text}`);
    expect(texts).toEqual(["20261129T182409123Z-settings two", "20261129T182408123Z-settings one"]);
    await restoreVersion(home, null, id, "20261129T182409123Z-settings", { now });
    expect((await readMemory(home, null, id)).ok && (await readMemory(home, null, id))).toMatchObject({ text: "two" });
    expect((await listVersions(home, null, id)).map((v) => v.name)).toEqual([
      "20261129T182410123Z-restore",
      "20261129T182409123Z-settings",
    ]);
  });

  it("refuses a version that does not exist", async () => {
    const id = await create();
    for (const name of ["20261129T182408123Z-settings", "../state.json", "state.json"]) {
      await expect(restoreVersion(home, null, id, name)).rejects.toThrow(
        `No saved version "${name}" of this memory exists.`,
      );
    }
  });

  it("undoes a chat change with source undo, and refuses when the text did not come from a chat", async () => {
    const now = makeClock("2026-11-29T18:24:08.123Z", 1000);
    const id = await create("A", "mine", null, now);
    await expect(undoChatChange(home, null, id)).rejects.toThrow(
      "The memory could not be changed: its current text did not come from a chat, so there is no chat change to undo.",
    );
    await changeMemory(home, null, id, { text: "the chat's" }, { source: "chat", sessionId: "c-1", now });
    const r = await undoChatChange(home, null, id, { now });
    expect(r.memory).toMatchObject({ text: "mine", state: { source: "undo" } });
    expect((await listVersions(home, null, id))[0]).toMatchObject({ source: "chat", text: "the chat's" });
  });

  it("undoes the chat change on a retry after an undo was killed once it had kept its version", async () => {
    const now = makeClock("2026-11-29T18:24:08.123Z", 1000);
    const id = await create("A", "mine", null, now);
    const chat = await changeMemory(home, null, id, { text: "the chat's" }, { source: "chat", now });
    // what the killed undo left: the current chat state kept as a version, the file not yet replaced
    const moment = chat.memory!.state.savedAt.replace(/[-:.]/g, "");
    await putFile(home, `memory-history/global/${id}/${moment}-chat`, await readFile(file(null, id)));
    const r = await undoChatChange(home, null, id, { now });
    expect(r.changed).toBe(true);
    expect(r.memory).toMatchObject({ text: "mine", state: { source: "undo" } });
  });

  it("removes the temporary files of interrupted saves from the memory's history folder on the next change", async () => {
    const id = await create("A", "one");
    await putFile(home, `memory-history/global/${id}/.state.json.tmp-0123456789ab`, "{");
    await putFile(home, `memory-history/global/${id}/.20261129T182408123Z-chat.tmp-0123456789ab`, "half");
    await changeMemory(home, null, id, { text: "two" });
    expect((await historyNames(null, id)).filter((n) => n.includes(".tmp-"))).toEqual([]);
  });
});
