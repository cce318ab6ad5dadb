import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeDeadHolder } from "../../test-support/chats/writer";
import { tempFolder } from "../../test-support/test-temp";
import { describeThisProcess } from "../fs/lock";
import { clearOwnStaleLock, lockedSentence, releaseChatLock, takeChatLock, thisHolder } from "./locks";

/**
 * A repair's chat lock (`locks.ts`) at its edges, in-process (the kill tests run it in child processes):
 * which left-over locks a repair takes over, and the refusals' exact sentences and codes.
 */

const me = describeThisProcess();
const contentOf = (holder: object) => `${JSON.stringify(holder)}\n`;

function chatWithLock(content?: string): { dir: string; path: string } {
  const dir = tempFolder("oda-repair-locks-");
  const path = join(dir, "session.lock");
  if (content !== undefined) writeFileSync(path, content);
  return { dir, path };
}

describe("takeChatLock", () => {
  it("creates session.lock naming this process, and answers its content", () => {
    const { dir, path } = chatWithLock();
    expect(thisHolder()).toEqual({ holder: me, content: contentOf(me) });
    expect(takeChatLock(dir, "c-1", me)).toBe(contentOf(me));
    expect(readFileSync(path, "utf8")).toBe(contentOf(me));
  });

  it("refuses a live holder with the writer's sentence, touching nothing", () => {
    const live = contentOf(me);
    const { dir, path } = chatWithLock(live);
    expect(lockedSentence("c-1")).toBe('session "c-1" is already owned by an active write handle');
    expect(() => takeChatLock(dir, "c-1", me, [live])).toThrow(
      expect.objectContaining({ code: "locked", message: lockedSentence("c-1") }),
    );
    expect(readFileSync(path, "utf8")).toBe(live);
  });

  it("refuses a stale lock it did not leave, naming its process", () => {
    const dead = makeDeadHolder();
    const { dir, path } = chatWithLock(contentOf(dead));
    expect(() => takeChatLock(dir, "c-1", me, [contentOf({ ...dead, pid: dead.pid + 1 })])).toThrow(
      expect.objectContaining({
        code: "refused",
        message: `Chat "c-1" has a stale session.lock (process ${dead.pid}); free the chat first. Nothing was changed.`,
      }),
    );
    expect(readFileSync(path, "utf8")).toBe(contentOf(dead));
  });

  it("takes over a stale lock a killed repair left, and one cut short (or empty) while it was written", () => {
    const dead = contentOf(makeDeadHolder());
    for (const left of [dead, dead.slice(0, 12), ""]) {
      const { dir, path } = chatWithLock(left);
      expect(takeChatLock(dir, "c-1", me, ["something else", dead])).toBe(contentOf(me));
      expect(readFileSync(path, "utf8")).toBe(contentOf(me));
    }
  });

  it("does not take over garbage that is not a prefix of its own, nor its whole content on another computer", () => {
    const dead = contentOf(makeDeadHolder());
    const elsewhere = contentOf({ ...me, host: `${hostname()}-elsewhere` });
    for (const [left, own] of [
      [`x${dead.slice(0, 12)}`, dead],
      [elsewhere, elsewhere],
    ] as const) {
      const { dir, path } = chatWithLock(left);
      expect(() => takeChatLock(dir, "c-1", me, [own])).toThrow(expect.objectContaining({ code: "locked" }));
      expect(readFileSync(path, "utf8")).toBe(left);
    }
  });
});

describe("releasing a chat lock", () => {
  it("releaseChatLock removes only a lock with our content", () => {
    const ours = contentOf(me);
    const other = chatWithLock(contentOf({ ...me, startedAt: "2020-01-01T00:00:00.000Z" }));
    releaseChatLock(other.dir, ours);
    expect(existsSync(other.path)).toBe(true);
    const mine = chatWithLock(ours);
    releaseChatLock(mine.dir, ours);
    expect(existsSync(mine.path)).toBe(false);
    releaseChatLock(mine.dir, ours); // none: nothing to do
  });

  it("clearOwnStaleLock removes only a stale lock with the given content", () => {
    const dead = contentOf(makeDeadHolder());
    const live = chatWithLock(contentOf(me));
    clearOwnStaleLock(live.dir, contentOf(me));
    expect(existsSync(live.path)).toBe(true);
    const foreign = chatWithLock(dead);
    clearOwnStaleLock(foreign.dir, contentOf(makeDeadHolder()));
    expect(existsSync(foreign.path)).toBe(true);
    clearOwnStaleLock(foreign.dir, dead);
    expect(existsSync(foreign.path)).toBe(false);
  });
});
