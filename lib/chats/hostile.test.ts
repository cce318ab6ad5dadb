import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileFolder, makeFifo, makeHostileFolder } from "../../test-support/chats/hostile-folder";
import { readLockStatus } from "../fs/lock";
import {
  groupName,
  indexChat,
  listAllChats,
  locateChat,
  NO_CWD_GROUP,
  openChatDownload,
  openLogStream,
  outlineChat,
  readChat,
  readChatLock,
  readLines,
  walkLogFolder,
} from ".";
import { readCheckpoint } from "./checkpoint";
import { readCompressSetting } from "./settings";

/**
 * FIFOs, sockets and links in the log folder (issue 10): each is a problem
 * with a sentence, nothing blocks, and nothing outside the log folder is read.
 * On the old code the listing blocked for good on the first FIFO log.
 */

let h: HostileFolder;
const fifo = (p: string) => `${p} is a FIFO (named pipe), not a regular file; it is not read.`;
const outsideLink = (p: string) => `${p} is a symbolic link that leads outside the log folder; it is not read.`;
const loop = (p: string) => `${p} is a symbolic link loop; it is not read.`;
const raw = (sentence: string, p: string) => `${sentence} raw log: ${p}`;
const log = (id: string, name = "session.v4.jsonl.zstd") => join(h.dirs[id] as string, name);

// One folder for the file: the tests only read it.
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "oda-hostile-"));
  h = await makeHostileFolder(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a hostile log folder", () => {
  it("lists every chat with its problem's sentence, and the folder-level problems", async () => {
    const { chats, problems } = await listAllChats(h.logs, { verify: true });
    const byId = Object.fromEntries(chats.map((c) => [c.id, c]));
    const messages = (id: string) => byId[id]?.problems.map((p) => p.message);
    expect(messages("c-good")).toEqual([]);
    expect(messages("c-fifo")).toEqual([raw(fifo(log("c-fifo")), log("c-fifo"))]);
    expect(messages("c-socket")).toEqual([
      raw(`${log("c-socket")} is a socket, not a regular file; it is not read.`, log("c-socket")),
    ]);
    expect(messages("c-cache-fifo")).toEqual([fifo(join(h.dirs["c-cache-fifo"] as string, "session.cache.json"))]);
    expect(byId["c-cache-fifo"]?.messages).toBe(2);
    expect(messages("c-lock-fifo")).toEqual([fifo(join(h.dirs["c-lock-fifo"] as string, "session.lock"))]);
    expect(byId["c-lock-fifo"]?.lock.state).toBe("unknown");
    const passwd = log("c-passwd", "session.jsonl");
    expect(messages("c-passwd")).toEqual([raw(outsideLink(passwd), passwd)]);
    expect(messages("c-devnull")).toEqual([raw(outsideLink(log("c-devnull")), log("c-devnull"))]);
    expect(messages("c-loop")).toEqual([raw(loop(log("c-loop")), log("c-loop"))]);
    expect(messages("c-inside")).toEqual([]);
    expect(byId["c-inside"]?.messages).toBe(2);
    for (const id of ["c-fifo", "c-passwd", "c-loop"]) expect(byId[id]?.format).toBeNull();

    const group = join(h.logs, groupName("/home/ana"));
    expect(problems.map((p) => p.message).sort()).toEqual(
      [
        outsideLink(join(h.logs, groupName("/elsewhere"))),
        `${join(h.logs, NO_CWD_GROUP, "c-fifo-folder")} is a FIFO (named pipe), not a folder; it is not read.`,
        `${join(h.logs, "notes.txt")} is a regular file, not a folder; it is not read.`,
        loop(join(group, "c-loop-folder")),
        outsideLink(join(group, "c-outside-folder")),
      ].sort(),
    );
    expect(JSON.stringify({ chats, problems })).not.toContain(h.canary);
  });

  it("refuses to open a chat folder linked outside or looping, by id as in the list", () => {
    expect(() => locateChat(h.logs, "c-outside-folder")).toThrow(outsideLink(h.dirs["c-outside-folder"] as string));
    expect(() => locateChat(h.logs, "c-loop-folder")).toThrow(loop(h.dirs["c-loop-folder"] as string));
    expect(() => locateChat(h.logs, h.canary)).toThrow(`No chat with the id "${h.canary}" is in the log folder.`);
    expect(walkLogFolder(h.logs).chats.map((c) => c.id)).not.toContain("c-outside-folder");
  });

  it("refuses to read lines, index or stream a FIFO log or a log linked outside, with the sentence", async () => {
    const passwd = log("c-passwd", "session.jsonl");
    await expect(readLines(h.logs, "c-fifo", { from: 1, count: 5 })).rejects.toThrow(
      raw(fifo(log("c-fifo")), log("c-fifo")),
    );
    await expect(readLines(h.logs, "c-passwd", { from: 1, count: 5, generation: "session.jsonl" })).rejects.toThrow(
      raw(outsideLink(passwd), passwd),
    );
    await expect(indexChat(h.logs, "c-loop")).rejects.toThrow(raw(loop(log("c-loop")), log("c-loop")));
    expect(() => openLogStream(log("c-fifo"), false)).toThrow(raw(fifo(log("c-fifo")), log("c-fifo")));
    const view = await readChat(h.logs, "c-socket");
    expect(view.lines).toBeNull();
    expect(outlineChat(h.logs, "c-passwd").generations[0]).toMatchObject({ current: false, bytes: 0 });
    expect(readChatLock(h.logs, "c-lock-fifo").reason).toBe(
      fifo(join(h.dirs["c-lock-fifo"] as string, "session.lock")),
    );
  });

  it("refuses downloads of a log linked outside or a FIFO log, in both forms, before reading a byte", async () => {
    const passwd = log("c-passwd", "session.jsonl");
    for (const form of ["raw", "decompressed"] as const) {
      expect(() => openChatDownload(h.logs, "c-passwd", { form })).toThrow(raw(outsideLink(passwd), passwd));
      expect(() => openChatDownload(h.logs, "c-passwd", { form, generation: "session.jsonl" })).toThrow(
        raw(outsideLink(passwd), passwd),
      );
      expect(() => openChatDownload(h.logs, "c-fifo", { form })).toThrow(raw(fifo(log("c-fifo")), log("c-fifo")));
    }
    const { stream, generation } = openChatDownload(h.logs, "c-inside", { form: "raw" });
    let bytes = 0;
    for await (const chunk of stream) bytes += (chunk as Buffer).length;
    expect(bytes).toBe(generation.bytes);
    expect(bytes).toBeGreaterThan(0);
  });

  it("reads a FIFO lock, checkpoint or settings.json directly without blocking, with the sentence", async () => {
    const lock = join(h.dirs["c-lock-fifo"] as string, "session.lock");
    expect(readLockStatus(lock)).toEqual({ state: "unknown", reason: `The lock file cannot be read: ${fifo(lock)}` });
    const cache = join(h.dirs["c-cache-fifo"] as string, "session.cache.json");
    expect(await readCheckpoint(cache)).toEqual({ error: fifo(cache) });
    // The root stands in for an Oda home: its settings.json is a FIFO, so the default form is used.
    makeFifo(join(root, "settings.json"));
    expect(readCompressSetting(root)).toBe(true);
  });

  it("takes the log folder's form from a settings.json inside the home only, never through a link out of it", () => {
    const home = join(root, "home-with-link");
    const outside = join(root, "outside-home");
    mkdirSync(home, { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "settings.json"), JSON.stringify({ sessions: { compress: false } }));
    symlinkSync(join(outside, "settings.json"), join(home, "settings.json"));
    expect(readCompressSetting(home)).toBe(true);
    // The same file inside the home is read, and so is a link to it that stays inside.
    rmSync(join(home, "settings.json"));
    writeFileSync(join(home, "real-settings.json"), JSON.stringify({ sessions: { compress: false } }));
    symlinkSync(join(home, "real-settings.json"), join(home, "settings.json"));
    expect(readCompressSetting(home)).toBe(false);
  });

  it("follows a link that stays inside the log folder", async () => {
    const read = await readLines(h.logs, "c-inside", { from: 1, count: 5 });
    expect(read.lines.map((l) => l.json?.type)).toEqual(["session", "message", "message", "turn_end"]);
    expect(read.error).toBeNull();
  });
});
