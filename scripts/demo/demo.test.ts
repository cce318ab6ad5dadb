import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAllChats } from "../../lib/chats";
import { listAllProblems, listDeleted, listSet, listVersions, listWorkspaces } from "../../lib/memory";
import { type Demo, makeDemo } from ".";

let dir: string;
let demo: Demo;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "oda-demo-test-"));
  demo = await makeDemo({ out: join(dir, "a"), seed: 7, chats: 24 });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("demo data", () => {
  it("has a global set and three workspaces with about 30 memories", async () => {
    expect(await listWorkspaces(demo.home)).toEqual(["reports", "research-notes", "website"]);
    let count = 0;
    for (const ws of [null, "reports", "research-notes", "website"])
      count += (await listSet(demo.home, ws)).memories.length;
    expect(count).toBeGreaterThanOrEqual(25);
    expect(count).toBeLessThanOrEqual(35);
  });

  it("holds one file for each problem in the contract's table", async () => {
    const problems = (await listAllProblems(demo.home)).map((p) => p.message);
    for (const start of [
      "The file is larger than 65536 bytes.",
      "The file cannot be read: ",
      "The file does not start with a --- frontmatter block.",
      "The frontmatter is not valid YAML: ",
      "The frontmatter fields enabled, source are missing or invalid.",
      "The memory is longer than 2000 characters or its title longer than 120; shorten it in the file.",
    ]) {
      expect(
        problems.some((m) => m.startsWith(start)),
        start,
      ).toBe(true);
    }
  });

  it("keeps histories holding every source, and one recently deleted memory", async () => {
    const sources = new Set<string>();
    for (const ws of [null, "reports", "research-notes", "website"]) {
      const set = await listSet(demo.home, ws);
      for (const m of set.memories) for (const v of await listVersions(demo.home, ws, m.id)) sources.add(v.source);
      for (const d of await listDeleted(demo.home, ws)) {
        for (const v of await listVersions(demo.home, ws, d.id)) sources.add(v.source);
      }
    }
    expect([...sources].sort()).toEqual(["chat", "external", "found", "restore", "settings", "undo"]);
    const deleted = (
      await Promise.all([null, "reports", "research-notes", "website"].map((ws) => listDeleted(demo.home, ws)))
    ).flat();
    expect(deleted.map((d) => d.title)).toEqual(["Reviewer"]);
  });

  it("writes chats in several working folders and _no-cwd, with every case an administrator meets", async () => {
    const { chats, problems } = await listAllChats(demo.logs);
    const groups = new Set(chats.map((c) => c.group));
    expect(groups.has("_no-cwd")).toBe(true);
    expect(groups.size).toBeGreaterThanOrEqual(4);
    const byId = (id: string) => chats.find((c) => c.id === id);
    expect(byId("c-demo-upgraded")?.generations.map((g) => g.name)).toEqual([
      "session.jsonl.zstd",
      "session.v4.jsonl.zstd",
    ]);
    expect(byId("c-demo-stale-lock")?.lock.state).toBe("stale");
    expect(byId("c-demo-checkpoint-behind")?.cacheState).toBe("behind");
    expect(byId("c-demo-checkpoint-mismatch")?.cacheState).toBe("discarded");
    expect(byId("c-demo-checkpoint-unreadable")?.cacheState).toBe("unreadable");
    const messages = [...problems, ...chats.flatMap((c) => c.problems)].map((p) => p.message);
    expect(messages.some((m) => m.startsWith('Chat "c-demo-two-places" is stored in two places: '))).toBe(true);
    expect(messages.some((m) => m.includes("cut off") && m.includes("raw log: "))).toBe(true);
    expect(chats.every((c) => c.generations.every((g) => g.compressed))).toBe(true);
  });

  it("is the same for the same seed", async () => {
    const again = await makeDemo({ out: join(dir, "b"), seed: 7, chats: 24 });
    const files = async (root: string) => (await readdir(join(root, "memory", "global"))).sort();
    expect(await files(again.home)).toEqual(await files(demo.home));
    const name = (await files(demo.home))[0] as string;
    expect(await readFile(join(again.home, "memory", "global", name), "utf8")).toBe(
      await readFile(join(demo.home, "memory", "global", name), "utf8"),
    );
    expect((await readdir(again.logs)).sort()).toEqual((await readdir(demo.logs)).sort());
  });
});
