import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { createChat, leaveDeadLock, upgradeToFormat4 } from "../../test-support/chats/testing";
import { outlineChat } from "./outline";

describe("outlineChat", () => {
  it("lists the generations (newest current), and a live lock while a writer holds the chat", async () => {
    const logs = tempDir();
    const w = createChat(logs, { id: "c-1", cwd: "/home/ana" }, { format: 1 });
    await w.appendTurn({ user: "hi", assistant: "hello" });
    await w.close();
    await upgradeToFormat4(logs, "c-1");
    const outline = outlineChat(logs, "c-1");
    expect(outline.location.cwd).toBe("/home/ana");
    expect(outline.generations.map((g) => [g.name, g.current])).toEqual([
      ["session.jsonl.zstd", false],
      ["session.v4.jsonl.zstd", true],
    ]);
    expect(outline.lock.state).toBe("none");

    const live = createChat(logs, { id: "c-2", cwd: null });
    await live.appendTurn({ user: "a", assistant: "b" });
    expect(outlineChat(logs, "c-2").lock).toMatchObject({ state: "live", pid: process.pid });
    await live.close();
  });

  it("reports a stale lock and refuses a log of the other form", async () => {
    const logs = tempDir();
    const w = createChat(logs, { id: "c-3", cwd: null });
    await w.appendTurn({ user: "a", assistant: "b" });
    w.abandon();
    const holder = leaveDeadLock(w.dir);
    writeFileSync(join(w.dir, "session.v5.jsonl"), "{}\n");
    const outline = outlineChat(logs, "c-3");
    expect(outline.lock).toMatchObject({ state: "stale", pid: holder.pid });
    const plain = outline.generations.find((g) => g.name === "session.v5.jsonl");
    expect(plain?.refused).toBe(
      `${join(w.dir, "session.v5.jsonl")} is plain but this log folder keeps zstd-compressed logs. raw log: ${join(w.dir, "session.v5.jsonl")}`,
    );
    expect(outline.generations.find((g) => g.current)).toBeUndefined();
  });

  it("refuses an unknown id", () => {
    expect(() => outlineChat(tempDir(), "nope")).toThrow('No chat with the id "nope" is in the log folder.');
  });
});
