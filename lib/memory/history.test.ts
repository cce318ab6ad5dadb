import { mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempFolder } from "../../test-support/test-temp";
import * as fsLayer from "../fs";
import { settleClock } from "./file-cache";
import {
  compactMoment,
  compareNewestFirst,
  contentKey,
  currentStateOf,
  listVersionNames,
  nextVersionName,
  parseVersionName,
  prepareVersion,
  readDeletedMark,
  readRegularFile,
  readSavedState,
  readStateRecord,
  removeDeletedMark,
  removeVersions,
  stageDeletedMark,
  stageIntent,
  stageSavedState,
  versionKeys,
  versionsToDrop,
  writeSavedState,
} from "./history";
import { parseMemorySource } from "./parse";

/**
 * A memory's history folder (`history.ts`, docs/file-contract.md, History) at its edges: version names,
 * `state.json`, `state.next.json` and `deleted.json` as read and as written, content keys, and which older
 * versions a new one makes redundant.
 */

// Every open of a version counted: a cached content key is one lstat and no read.
vi.mock("../fs", async (original) => {
  const real = await original<typeof import("../fs")>();
  return { ...real, openRegular: vi.fn(real.openRegular) };
});
const opened = vi.mocked(fsLayer.openRegular);

const memory = (text: string, enabled = true) => `---\ntitle: T\nenabled: ${enabled}\nsource: user\n---\n\n${text}\n`;

describe("version names", () => {
  it("are the moment, the source and -2, -3, … on a shared moment; anything else is no version", () => {
    expect(compactMoment("2026-11-29T18:24:08.123Z")).toBe("20261129T182408123Z");
    expect(compactMoment("2026-11-29T19:24:08.1+01:00")).toBe("20261129T182408100Z");
    expect(parseVersionName("20261129T182408123Z-chat")).toEqual({
      name: "20261129T182408123Z-chat",
      moment: "2026-11-29T18:24:08.123Z",
      source: "chat",
      seq: 1,
    });
    expect(parseVersionName("20261129T182408123Z-found-12")).toMatchObject({ source: "found", seq: 12 });
    for (const source of ["settings", "restore", "undo", "external"])
      expect(parseVersionName(`20261129T182408123Z-${source}-2`)).toMatchObject({ source, seq: 2 });
    for (const bad of [
      "20261129T182408123Z-chat-1",
      "20261129T182408123Z-chat-0",
      "20261129T182408123Z-chat-02",
      "20261129T182408123Z-Chat",
      "20261129T182408123Z-user",
      "x20261129T182408123Z-chat",
      "20261129T182408123Z-chat.tmp",
      "20261129T182408123Z-chat-",
      "20261129T18240812Z-chat",
      "20261129182408123Z-chat",
      "state.json",
    ])
      expect(parseVersionName(bad), bad).toBeNull();
  });

  it("sort newest first: by moment, then by the number on a shared moment", () => {
    const names = ["20261129T182408123Z-chat", "20261129T182408123Z-undo-3", "20261130T000000000Z-chat"]
      .map(parseVersionName)
      .map((v) => v as NonNullable<typeof v>);
    const b = names[1] as NonNullable<(typeof names)[number]>;
    const a = names[0] as NonNullable<(typeof names)[number]>;
    const c = names[2] as NonNullable<(typeof names)[number]>;
    expect(compareNewestFirst(a, c)).toBe(1);
    expect(compareNewestFirst(c, a)).toBe(-1);
    expect(compareNewestFirst(a, b)).toBe(2);
    expect(compareNewestFirst(a, a)).toBe(0);
  });

  it("are listed from the folder newest first, leaving out other names; a missing folder has none", async () => {
    const history = tempFolder("oda-history-");
    for (const n of [
      "20261129T182408123Z-chat",
      "20261130T000000000Z-settings",
      "20261129T182408123Z-undo-2",
      "state.json",
      ".20261129T182408123Z-chat.tmp-0123456789ab",
    ])
      writeFileSync(join(history, n), "");
    expect((await listVersionNames(history)).map((v) => v.name)).toEqual([
      "20261130T000000000Z-settings",
      "20261129T182408123Z-undo-2",
      "20261129T182408123Z-chat",
    ]);
    expect(await listVersionNames(join(history, "none"))).toEqual([]);
  });

  it("the next name among others: -2 after one, -4 after -3, plain on a new moment", () => {
    const names = ["20261129T182408123Z-chat", "20261129T182408123Z-undo-3", "20261128T000000000Z-chat-2"].map(
      (n) => parseVersionName(n) as NonNullable<ReturnType<typeof parseVersionName>>,
    );
    expect(nextVersionName(names, { source: "restore", savedAt: "2026-11-29T18:24:08.123Z" })).toBe(
      "20261129T182408123Z-restore-4",
    );
    expect(nextVersionName(names.slice(0, 1), { source: "chat", savedAt: "2026-11-29T18:24:08.123Z" })).toBe(
      "20261129T182408123Z-chat-2",
    );
    expect(nextVersionName(names, { source: "found", savedAt: "2026-11-28T00:00:00.001Z" })).toBe(
      "20261128T000000001Z-found",
    );
    expect(nextVersionName([], { source: "found", savedAt: "2026-11-28T00:00:00.000Z" })).toBe(
      "20261128T000000000Z-found",
    );
  });
});

describe("state.json, state.next.json and deleted.json", () => {
  it("read back what was written; absent, garbage or a field of the wrong kind is null", async () => {
    const history = tempFolder("oda-history-state-");
    const saved = { sha256: "ab".repeat(32), savedAt: "2026-11-29T18:24:08.123Z", source: "chat" as const };
    expect(await readStateRecord(history)).toEqual({ saved: null, intent: null });
    await writeSavedState(history, saved);
    expect(readFileSync(join(history, "state.json"), "utf8")).toBe(`${JSON.stringify(saved)}\n`);
    const intent = { ...saved, source: "undo" as const };
    const staged = await stageIntent(history, intent);
    await staged.commit();
    expect(readFileSync(join(history, "state.next.json"), "utf8")).toBe(`${JSON.stringify(intent)}\n`);
    expect(await readStateRecord(history)).toEqual({ saved, intent });
    writeFileSync(join(history, "state.json"), JSON.stringify({ ...saved, extra: 1 }));
    expect(await readSavedState(history)).toEqual(saved);
    for (const bad of [
      "{",
      "null",
      JSON.stringify({ ...saved, sha256: 1 }),
      JSON.stringify({ ...saved, savedAt: null }),
      JSON.stringify({ ...saved, source: "user" }),
      JSON.stringify({ savedAt: saved.savedAt, source: "chat" }),
    ]) {
      writeFileSync(join(history, "state.json"), bad);
      expect(await readSavedState(history), bad).toBeNull();
    }
    const again = await stageSavedState(history, saved);
    await again.commit();
    expect(readFileSync(join(history, "state.json"), "utf8")).toBe(`${JSON.stringify(saved)}\n`);
  });

  it("deleted.json: the moment and the title (empty when not text); without a moment it is no mark", async () => {
    const history = tempFolder("oda-history-deleted-");
    expect(await readDeletedMark(history)).toBeNull();
    const mark = { deletedAt: "2026-11-29T18:24:08.123Z", title: "Old" };
    await (await stageDeletedMark(history, mark)).commit();
    expect(readFileSync(join(history, "deleted.json"), "utf8")).toBe(`${JSON.stringify(mark)}\n`);
    expect(await readDeletedMark(history)).toEqual(mark);
    writeFileSync(join(history, "deleted.json"), JSON.stringify({ deletedAt: mark.deletedAt, title: 3 }));
    expect(await readDeletedMark(history)).toEqual({ deletedAt: mark.deletedAt, title: "" });
    writeFileSync(join(history, "deleted.json"), JSON.stringify({ deletedAt: 3, title: "Old" }));
    expect(await readDeletedMark(history)).toBeNull();
    await removeDeletedMark(history);
    await removeDeletedMark(history); // absent: no error
    expect(readdirSync(history)).toEqual([]);
  });

  it("a FIFO or a symbolic link named like them is never read (a link only when following)", async () => {
    const history = tempFolder("oda-history-odd-");
    writeFileSync(join(history, "real"), "bytes");
    symlinkSync(join(history, "real"), join(history, "link"));
    await expect(readRegularFile(join(history, "link"))).rejects.toThrow();
    expect((await readRegularFile(join(history, "link"), true)).toString()).toBe("bytes");
    symlinkSync(join(history, "real"), join(history, "state.json"));
    expect(await readSavedState(history)).toBeNull();
  });

  it("closes every file it reads, the refused ones too", async () => {
    const history = tempFolder("oda-history-fds-");
    writeFileSync(join(history, "real"), "bytes");
    const open = () => readdirSync("/proc/self/fd").length;
    const before = open();
    for (let i = 0; i < 5; i++) {
      await readRegularFile(join(history, "real"));
      await readRegularFile(join(history, "none")).catch(() => undefined);
    }
    expect(open()).toBe(before);
  });
});

describe("the current state", () => {
  const saved = { sha256: "a", savedAt: "2026-11-01T00:00:00.000Z", source: "chat" as const };
  const intent = { sha256: "b", savedAt: "2026-11-02T00:00:00.000Z", source: "undo" as const };
  const mtime = Date.parse("2026-11-03T00:00:00.000Z") + 0.9;

  it("is the intent's when the bytes match it, else state.json's, else external or found at the mtime", () => {
    expect(currentStateOf({ saved, intent }, "b", mtime)).toEqual({ source: "undo", savedAt: intent.savedAt });
    expect(currentStateOf({ saved, intent }, "a", mtime)).toEqual({ source: "chat", savedAt: saved.savedAt });
    expect(currentStateOf({ saved: null, intent }, "a", mtime)).toEqual({
      source: "found",
      savedAt: "2026-11-03T00:00:00.000Z",
    });
    expect(currentStateOf({ saved, intent: null }, "c", mtime)).toEqual({
      source: "external",
      savedAt: "2026-11-03T00:00:00.000Z",
    });
    expect(currentStateOf({ saved: null, intent: null }, "c", mtime + 1000)).toEqual({
      source: "found",
      savedAt: "2026-11-03T00:00:01.000Z",
    });
  });
});

describe("content keys", () => {
  it("are title, text and enabled for a memory; the raw text for a file with a problem; unreadable bytes alike", () => {
    expect(contentKey(memory("x"))).toBe(JSON.stringify(["T", "x", true]));
    expect(contentKey(memory("x", false))).toBe(JSON.stringify(["T", "x", false]));
    expect(contentKey(`${memory("x")}\n\n`)).toBe(contentKey(memory("x")));
    expect(contentKey("no frontmatter")).toBe("raw:no frontmatter");
    expect(contentKey(null)).toBe("bytes:?");
    const other = parseMemorySource(memory("given"));
    expect(contentKey(memory("x"), other)).toBe(JSON.stringify(["T", "given", true]));
  });

  it("of versions, by file; a changed version is read again, a missing one is empty", async () => {
    const history = tempFolder("oda-history-keys-");
    const [a, b] = ["20261129T182408123Z-chat", "20261130T000000000Z-chat"];
    writeFileSync(join(history, a), memory("a"));
    const names = [a, b].map((n) => parseVersionName(n) as NonNullable<ReturnType<typeof parseVersionName>>);
    expect(await versionKeys(history, names)).toEqual([JSON.stringify(["T", "a", true]), "raw:"]);
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(history, a), old, old);
    const now = settleClock.now;
    try {
      settleClock.now = () => Date.now() + 60_000; // the file has settled: its key may be cached
      expect(await versionKeys(history, names.slice(0, 1))).toEqual([JSON.stringify(["T", "a", true])]);
      opened.mockClear();
      expect(await versionKeys(history, names)).toEqual([JSON.stringify(["T", "a", true]), "raw:"]);
      expect(opened.mock.calls.map((c) => c[0])).toEqual([join(history, b)]); // a from the cache
      writeFileSync(join(history, a), memory("changed")); // a new ctime: the cache must not answer
      expect(await versionKeys(history, names.slice(0, 1))).toEqual([JSON.stringify(["T", "changed", true])]);
      settleClock.now = now; // not settled: read, and not cached
      opened.mockClear();
      writeFileSync(join(history, a), memory("again"));
      expect(await versionKeys(history, names.slice(0, 1))).toEqual([JSON.stringify(["T", "again", true])]);
      expect(await versionKeys(history, names.slice(0, 1))).toEqual([JSON.stringify(["T", "again", true])]);
      expect(opened).toHaveBeenCalledTimes(2);
    } finally {
      settleClock.now = now;
    }
  });
});

describe("keeping a version", () => {
  const v = (n: string) => parseVersionName(n) as NonNullable<ReturnType<typeof parseVersionName>>;

  it("drops older versions of the same content and those past versionsKept, the new one counted", () => {
    const names = [v("20261129T000000003Z-chat"), v("20261129T000000002Z-chat"), v("20261129T000000001Z-chat")];
    const keys = ["k3", "same", "k1"];
    expect(versionsToDrop(names, keys, "20261129T000000004Z-undo", "same", 3)).toEqual(["20261129T000000002Z-chat"]);
    expect(versionsToDrop(names, keys, "20261129T000000004Z-undo", "new", 3)).toEqual(["20261129T000000001Z-chat"]);
    expect(versionsToDrop(names, keys, "20261129T000000004Z-undo", "new", 4)).toEqual([]);
    expect(versionsToDrop(names, keys, "20261129T000000004Z-undo", "same", 1)).toEqual([
      "20261129T000000002Z-chat",
      "20261129T000000003Z-chat",
      "20261129T000000001Z-chat",
    ]);
    // an older moment than every kept one: the new version itself is past the limit
    expect(versionsToDrop(names.slice(0, 1), ["k3"], "20261128T000000000Z-found", "x", 1)).toEqual([
      "20261128T000000000Z-found",
    ]);
  });

  it("stages the bytes under a temporary name, then commits under the version's name", async () => {
    const history = tempFolder("oda-history-keep-");
    mkdirSync(history, { recursive: true });
    writeFileSync(join(history, "20261129T000000001Z-chat"), memory("a"));
    writeFileSync(join(history, "20261129T000000002Z-chat"), memory("b"));
    const state = { source: "settings" as const, savedAt: "2026-11-29T00:00:00.002Z" };
    const prepared = await prepareVersion(history, Buffer.from(memory("a")), state, 10);
    expect(prepared.name).toBe("20261129T000000002Z-settings-2");
    expect(prepared.drop).toEqual(["20261129T000000001Z-chat"]);
    expect(readdirSync(history).filter((n) => n.startsWith("."))).toHaveLength(1);
    await prepared.commit();
    expect(readFileSync(join(history, prepared.name), "utf8")).toBe(memory("a"));
    const parse = parseMemorySource(memory("b"));
    const again = await prepareVersion(history, Buffer.from(memory("zz")), state, 10, undefined, parse);
    expect(again.drop).toEqual(["20261129T000000002Z-chat"]);
    const bad = await prepareVersion(history, Buffer.from(memory("a")), state, 10, [], {
      ok: false,
      message: "m",
    });
    expect(bad.drop).toEqual([]);
    await Promise.all([again.discard(), bad.discard()]);
    await removeVersions(history, ["20261129T000000001Z-chat", "20261129T000000009Z-chat"]);
    expect(readdirSync(history).sort()).toEqual(["20261129T000000002Z-chat", "20261129T000000002Z-settings-2"]);
  });
});
