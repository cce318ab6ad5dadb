import { lstat, mkdir, rename, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freshHomePerTest } from "../../test-support/memory/test-home";
import { memoryText, putFile } from "../../test-support/memory/testing";
import { chatPayload, listSet, readMemory, writeSettings } from ".";
import { isSettled, LruCache, SETTLE_MS, settleClock } from "./file-cache";
import { clearParseCache, parseCacheStats } from "./read-file";

let home: string;
const realNow = settleClock.now;
freshHomePerTest((h) => (home = h));
beforeEach(() => {
  clearParseCache();
  // as if every file had been written long ago: cached entries are used at once
  settleClock.now = () => Date.now() + 10 * SETTLE_MS;
});
// runs before the home is removed (vitest runs after-hooks as a stack)
afterEach(() => {
  settleClock.now = realNow;
  clearParseCache();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A whole second: utimes can set it back exactly (it takes seconds as a double). */
const ROUND = 1_780_000_000;
const texts = async (ws: string | null = null) => (await listSet(home, ws)).memories.map((m) => m.text);

describe("the parse cache", () => {
  it("serves an unchanged file from one stat, with the same result as a fresh read", async () => {
    await putFile(home, "memory/global/0000000a", memoryText("A", "first"));
    await putFile(home, "memory/global/0000000b", "no frontmatter");
    const cold = await listSet(home, null);
    expect(parseCacheStats).toEqual({ hits: 0, parsed: 2 });
    const warm = await listSet(home, null);
    expect(parseCacheStats).toEqual({ hits: 2, parsed: 2 });
    expect(warm).toEqual(cold);
    expect((await readMemory(home, null, "0000000a")).ok).toBe(true);
    expect(parseCacheStats.hits).toBe(3);
  });

  it("sees a same-size outside edit whose mtime moved", async () => {
    const path = await putFile(home, "memory/global/0000000a", memoryText("A", "first"));
    expect(await texts()).toEqual(["first"]);
    const before = await stat(path);
    await writeFile(path, memoryText("A", "other"));
    await utimes(path, before.atime, new Date(before.mtimeMs + 5000));
    expect(await texts()).toEqual(["other"]);
    const m = await readMemory(home, null, "0000000a");
    expect(m.ok && m.text).toBe("other");
  });

  it("sees a same-size in-place edit with the mtime put back (the ctime moved)", async () => {
    const path = await putFile(home, "memory/global/0000000a", memoryText("A", "first"));
    await utimes(path, ROUND, ROUND);
    expect(await texts()).toEqual(["first"]);
    const before = await stat(path);
    await sleep(20); // past the kernel's timestamp tick, as any later edit is
    await writeFile(path, memoryText("A", "other"));
    await utimes(path, ROUND, ROUND);
    const after = await stat(path);
    expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
    expect(after.ctimeMs).not.toBe(before.ctimeMs);
    expect(await texts()).toEqual(["other"]);
  });

  it("sees a same-size file renamed over it with the old mtime (a new inode)", async () => {
    const path = await putFile(home, "memory/global/0000000a", memoryText("A", "first"));
    await utimes(path, ROUND, ROUND);
    expect(await texts()).toEqual(["first"]);
    const before = await stat(path);
    const temp = join(home, "memory/global/elsewhere");
    await writeFile(temp, memoryText("A", "other"));
    await utimes(temp, ROUND, ROUND);
    await rename(temp, path);
    const after = await lstat(path);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    expect(after.ino).not.toBe(before.ino);
    expect(await texts()).toEqual(["other"]);
    expect((await chatPayload(home, null)).text).toBe("## A\nother");
  });

  it("sees files added or removed outside (the folder listing is cached by the folder's stat)", async () => {
    await putFile(home, "memory/workspaces/w/0000000a", memoryText("A", "first"));
    expect(await texts("w")).toEqual(["first"]);
    await sleep(20);
    await putFile(home, "memory/workspaces/w/0000000b", memoryText("B", "second"));
    expect(await texts("w")).toEqual(["first", "second"]);
    expect((await chatPayload(home, "w")).text).toBe("## A\nfirst\n\n## B\nsecond");
  });

  it("sees a file removed or turned into a folder", async () => {
    const path = await putFile(home, "memory/global/0000000a", memoryText("A", "first"));
    await putFile(home, "memory/global/0000000b", memoryText("B", "second"));
    expect(await texts()).toEqual(["first", "second"]);
    await rename(path, join(home, "moved"));
    expect(await texts()).toEqual(["second"]);
    await mkdir(path);
    expect((await listSet(home, null)).problems.map((p) => p.message)).toEqual([
      "The file cannot be read: it is a folder.",
    ]);
  });

  it("keys a parse by the limits it was checked against", async () => {
    await putFile(home, "memory/global/0000000a", memoryText("A", "x".repeat(150)));
    expect((await listSet(home, null)).problems).toEqual([]);
    await writeSettings(home, { textMaxChars: 100 });
    expect((await listSet(home, null)).problems.map((p) => p.message)).toEqual([
      "The memory is longer than 100 characters or its title longer than 120; shorten it in the file.",
    ]);
  });

  it("does not cache a file changed too recently to be told apart by its timestamps", async () => {
    settleClock.now = realNow;
    await putFile(home, "memory/global/0000000a", memoryText("A", "first"));
    await listSet(home, null);
    await listSet(home, null);
    expect(parseCacheStats).toEqual({ hits: 0, parsed: 2 });
  });
});

describe("isSettled", () => {
  it("needs a ctime clearly older than the read", async () => {
    const { home: h } = { home };
    const st = await stat(h, { bigint: true });
    const ctime = Number(st.ctimeNs / 1_000_000n);
    expect(isSettled(st, ctime)).toBe(false);
    expect(isSettled(st, ctime + SETTLE_MS - 1)).toBe(false);
    expect(isSettled(st, ctime + SETTLE_MS)).toBe(true);
  });
});

describe("LruCache", () => {
  it("drops the least recently used entry past its size", () => {
    const lru = new LruCache<number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1);
    lru.set("c", 3);
    expect([lru.get("a"), lru.get("b"), lru.get("c"), lru.size]).toEqual([1, undefined, 3, 2]);
  });
});
