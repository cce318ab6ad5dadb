import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { createChat, leaveDeadLock } from "../../test-support/chats/testing";
import type { ChatSummary } from "./chat";
import type { ChatLocation } from "./folder";
import { listAllChats } from "./list";
import { encodeName } from "./names";
import { decodeRemembered, encodeRemembered } from "./remembered-codec";

/**
 * The listing memory's stored summary (`remembered-codec.ts`): what a listing
 * serves from memory is the very summary the full rule gave, keys in the same
 * order, whatever form the record took.
 */

const CWD = "/home/ana/reports";
const GROUP = `--${encodeName(CWD)}--`;

const locOf = (logs: string, chat: ChatSummary): ChatLocation =>
  ({
    id: chat.id,
    folder: chat.folder,
    group: chat.group,
    cwd: chat.cwd,
    dir: join(logs, ...chat.folder.split("/")),
    root: logs,
  }) as ChatLocation;

/** Key order at every level, as `JSON.stringify` prints it. */
const same = (a: unknown, b: unknown) => expect(JSON.stringify(a)).toBe(JSON.stringify(b));

async function chats(): Promise<{ logs: string; list: ChatSummary[] }> {
  const logs = tempDir();
  for (const id of ["plain", "no-checkpoint", "locked", "titled"]) {
    const w = createChat(logs, { id, cwd: CWD });
    await w.appendTurn({ user: `question for ${id}`, assistant: `answer for ${id}` });
    await w.close();
  }
  const dir = (id: string) => join(logs, GROUP, encodeName(id));
  rmSync(join(dir("no-checkpoint"), "session.cache.json"));
  leaveDeadLock(dir("locked"));
  const { chats: list } = await listAllChats(logs, { compress: true });
  return { logs, list };
}

describe("the remembered summary's stored form", () => {
  it("gives back each chat's summary exactly: from the checkpoint, rebuilt, with a lock and its problem", async () => {
    const { logs, list } = await chats();
    expect(list.map((c) => c.cacheState).sort()).toContain("none");
    expect(list.some((c) => c.lock.state !== "none" && c.problems.length)).toBe(true);
    for (const chat of list) {
      const stored = encodeRemembered(chat);
      expect(stored.startsWith("[")).toBe(true);
      // Neither the chat's place nor its logs' paths are kept: the walk gives them (a problem names its path).
      if (!chat.problems.length) {
        expect(stored).not.toContain(chat.folder);
        expect(stored).not.toContain(logs);
      }
      same(decodeRemembered(stored, locOf(logs, chat)), chat);
    }
  });

  it("places a chat where the walk found it now", async () => {
    const { logs, list } = await chats();
    const chat = list[0] as ChatSummary;
    const moved = { ...locOf(logs, chat), dir: "/elsewhere/g/c", folder: "g/c", group: "g", id: "c" } as ChatLocation;
    const back = decodeRemembered(encodeRemembered(chat), moved);
    expect([back.id, back.folder, back.group]).toEqual(["c", "g/c", "g"]);
    expect(back.generations.map((g) => g.path)).toEqual(chat.generations.map((g) => `/elsewhere/g/c/${g.name}`));
  });

  it("keeps a summary of other keys, or an undefined value, whole as an object", async () => {
    const { logs, list } = await chats();
    const chat = list[0] as ChatSummary;
    const extra = { ...chat, decompressedBytes: 12 } as ChatSummary;
    const { title, ...rest } = chat;
    const reordered = { title, ...rest } as ChatSummary;
    const undefinedValue = { ...chat, title: undefined } as unknown as ChatSummary;
    for (const odd of [extra, reordered, undefinedValue]) {
      const stored = encodeRemembered(odd);
      expect(stored.startsWith("{")).toBe(true);
      expect(decodeRemembered(stored, locOf(logs, odd))).toEqual(odd);
    }
  });

  it("leaves the listing's marks out, and refuses a damaged record", async () => {
    const { logs, list } = await chats();
    const chat = { ...(list[0] as ChatSummary), remembered: true };
    expect(decodeRemembered(encodeRemembered(chat), locOf(logs, chat)).remembered).toBeUndefined();
    expect(() => decodeRemembered("[1,2]", locOf(logs, chat))).toThrow();
    expect(() => decodeRemembered("[1,", locOf(logs, chat))).toThrow();
  });
});
