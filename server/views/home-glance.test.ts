import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { walkLogFolder } from "@/lib/chats";
import { writeSettings } from "@/lib/memory";
import { closeAllIndexes, refreshIndex } from "@/lib/search-index";
import { createChat, settleFolder } from "@/test-support/chats/testing";
import { liveContext } from "../source/context";
import { runningLanes } from "../workers/log-worker";
import { chatsGlanceFromIndex, folderGlanceInWorker } from "./home-glance";

/**
 * Home's glance from the index: a count made under one form of logs is never
 * shown for a folder that now keeps the other form (a plain-logs setting
 * makes every compressed chat a problem, while no log changed).
 */

let root: string;
let home: string;
let logs: string;
let state: string;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "oda-home-glance-"));
  home = join(root, "home");
  logs = join(root, "logs");
  state = join(root, "state");
  mkdirSync(home);
  await writeSettings(home, { compress: true });
  for (const id of ["c-1", "c-2"]) {
    const w = createChat(logs, { id, cwd: "/home/ana/zoo", created: "2026-11-29T18:24:08.123Z" });
    await w.appendTurn({ user: `question of ${id}`, assistant: "answer" });
    await w.close();
    settleFolder(w.dir);
  }
  await refreshIndex(state, logs, { compress: true });
});
afterEach(() => {
  closeAllIndexes();
  rmSync(root, { recursive: true, force: true });
});

describe("Home's chats from the index", () => {
  it("are the index's while the folder keeps the form the index was refreshed under", async () => {
    const found = chatsGlanceFromIndex(liveContext({ home, logs, state, demo: false }));
    expect(found?.glance).toMatchObject({ built: true, chats: 2, problemChats: 0 });
    expect(await found?.recounted).toBeNull();
  });

  it("are not taken from an index refreshed under the other form: Home lists the folder instead", async () => {
    await writeSettings(home, { compress: false });
    expect(chatsGlanceFromIndex(liveContext({ home, logs, state, demo: false }))).toBeNull();
  });
});

describe("Home's glance at a log folder without a built index", () => {
  it("is walked on the decode worker, with walkLogFolder's counts and the folder's problems", async () => {
    writeFileSync(join(logs, "notes.txt"), "not a group folder");
    const walk = walkLogFolder(logs);
    const glance = await folderGlanceInWorker(logs);
    expect(runningLanes()).toContain("decode");
    expect(glance).toEqual({
      chats: 2,
      groups: 1,
      problems: walk.problems,
    });
    expect(glance.problems.map((p) => p.message)).toEqual([expect.stringContaining("notes.txt")]);
    await expect(folderGlanceInWorker(join(root, "missing"))).rejects.toThrow("does not exist");
  });
});
