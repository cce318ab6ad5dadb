import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChat } from "../../test-support/chats/testing";
import { encodeName, groupName, locateChat, walkLogFolder } from ".";

let logs: string;
beforeEach(() => {
  logs = mkdtempSync(join(tmpdir(), "oda-locate-"));
});
afterEach(() => rmSync(logs, { recursive: true, force: true }));

async function chat(id: string, cwd: string | null) {
  const writer = createChat(logs, { id, cwd, created: "2026-11-29T18:24:08.123Z" }, { compress: false });
  await writer.appendTurn({ user: "hi", assistant: "hello", ts: "2026-11-29T18:25:00.000Z" });
  await writer.close();
  return writer.dir;
}

describe("locateChat", () => {
  it("finds a chat by id in its group, with ids that need encoding", async () => {
    await chat("c-1", "/home/ana/reports");
    const dir = await chat("c/2 é", null);
    expect(locateChat(logs, "c/2 é")).toMatchObject({ id: "c/2 é", group: "_no-cwd", cwd: null, dir });
    expect(locateChat(logs, "c-1")).toMatchObject({
      cwd: "/home/ana/reports",
      folder: "--%2Fhome%2Fana%2Freports--/c-1",
    });
  });

  it("agrees with walking the folder, and refuses a chat in two places naming both", async () => {
    const dir = await chat("c-dup", "/a");
    const copy = join(logs, groupName("/b"), encodeName("c-dup"));
    cpSync(dir, copy, { recursive: true });
    const walk = walkLogFolder(logs);
    const sentence = walk.problems.find((p) => p.kind === "duplicate")?.message;
    expect(sentence).toBe(`Chat "c-dup" is stored in two places: ${dir} and ${copy}.`);
    expect(() => locateChat(logs, "c-dup")).toThrow(sentence as string);
  });

  it("refuses an unknown id, and never treats an id as a path", async () => {
    await chat("c-1", "/a");
    mkdirSync(join(logs, "not-a-group", "c-2"), { recursive: true });
    expect(() => locateChat(logs, "c-2")).toThrow('No chat with the id "c-2" is in the log folder.');
    expect(() => locateChat(logs, "../c-1")).toThrow('No chat with the id "../c-1" is in the log folder.');
    expect(() => locateChat(logs, "..")).toThrow('No chat with the id ".." is in the log folder.');
  });
});
