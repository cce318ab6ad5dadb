import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { upgradeToFormat4 } from "../../test-support/chats/testing";
import { makeWorld, type RepairWorld, snapshotFiles, writeChat } from "../../test-support/repair/testing";
import { locateChat } from "../chats";
import { describeThisProcess, readProcessStartTime } from "../fs/lock";
import { listAllProblems } from "../memory/problems";
import {
  applyRepair,
  compareCopies,
  listJobs,
  listRepairable,
  previewRepair,
  runFormJob,
  spaceReport,
  undoRepair,
} from ".";

let world: RepairWorld;

/** The start time of a just-spawned process, once /proc shows it. */
async function waitForStart(pid: number): Promise<Date> {
  for (;;) {
    const started = readProcessStartTime(pid);
    if (started) return started;
    await new Promise((r) => setTimeout(r, 10));
  }
}
afterEach(() => world?.remove());

describe("stored in two places", () => {
  it("compares both copies, sets the chosen one aside whole, and undo puts the folder back", async () => {
    world = makeWorld(true);
    const first = await writeChat(world.logs, "c-dup", { compress: true, turns: 2 });
    const otherGroup = join(world.logs, "_no-cwd", "c-dup");
    mkdirSync(join(world.logs, "_no-cwd"));
    cpSync(first, otherGroup, { recursive: true });
    await writeChat(world.logs, "c-more", { compress: true, turns: 4 });
    cpSync(
      join(world.logs, "--%2Fhome%2Fana%2Freports--", "c-more", "session.v4.jsonl.zstd"),
      join(first, "session.v4.jsonl.zstd"),
    );
    const before = snapshotFiles(world.logs);
    expect((await listRepairable(world.roots)).map((r) => r.id)).toContain("duplicate:c-dup");

    const copies = await compareCopies(world.logs, "c-dup", true);
    expect(copies.map((c) => [c.dir, c.lines, c.leads])).toEqual([
      [first, 13, true],
      [otherGroup, 7, false],
    ]);
    expect(copies[0]?.files.map((f) => f.name)).toEqual(["session.cache.json", "session.v4.jsonl.zstd"]);
    await expect(applyRepair(world.roots, { kind: "duplicate", chat: "c-dup" })).rejects.toThrow(/Choose which copy/);

    const preview = await previewRepair(world.roots, { kind: "duplicate", chat: "c-dup", setAside: otherGroup });
    expect(preview.changes.at(-1)).toEqual({ action: "remove the emptied folder", path: otherGroup, bytes: 0 });
    const journal = await applyRepair(world.roots, { kind: "duplicate", chat: "c-dup", setAside: otherGroup });
    expect(existsSync(otherGroup)).toBe(false);
    expect(locateChat(world.logs, "c-dup").dir).toBe(first);

    const undo = await undoRepair(world.state, journal.id);
    expect(snapshotFiles(world.logs)).toEqual(before);
    // The folder set aside is made again before the undo locks it (the lock file lives in it), and recorded.
    expect(undo.dirs).toEqual({ create: [otherGroup], remove: [] });
  });
});

describe("problem memory files", () => {
  it("sets a file aside under the memory lock so it leaves the set; undo puts it back byte for byte", async () => {
    world = makeWorld(true);
    const set = join(world.home, "memory", "workspaces", "ws1");
    mkdirSync(set, { recursive: true });
    writeFileSync(join(set, "0a1b2c3d"), "no frontmatter here\n");
    const before = snapshotFiles(join(world.home, "memory"));
    const listed = await listRepairable(world.roots);
    expect(listed.map((r) => [r.id, r.message])).toEqual([
      ["memory:workspaces/ws1/0a1b2c3d", "The file does not start with a --- frontmatter block."],
    ]);
    const journal = await applyRepair(world.roots, { kind: "memory", workspace: "ws1", memory: "0a1b2c3d" });
    expect(readdirSync(set)).toEqual([]);
    expect(await listAllProblems(world.home)).toEqual([]);
    expect(existsSync(join(world.home, "memory-history", ".lock"))).toBe(false);
    await undoRepair(world.state, journal.id);
    expect(snapshotFiles(join(world.home, "memory"))).toEqual(before);
  });

  it("is refused while another Oda Admin process holds the memory lock, and nothing is touched", async () => {
    world = makeWorld(true);
    const set = join(world.home, "memory", "global");
    mkdirSync(set, { recursive: true });
    writeFileSync(join(set, "0a1b2c3d"), "---\ntitle: [unclosed\n---\n\ntext\n");
    const other = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      const started = await waitForStart(other.pid as number);
      mkdirSync(join(world.home, "memory-history"), { recursive: true });
      writeFileSync(
        join(world.home, "memory-history", ".lock"),
        `${JSON.stringify({ pid: other.pid, host: hostname(), startedAt: started.toISOString() })}\n`,
      );
      const before = snapshotFiles(world.home);
      await expect(applyRepair(world.roots, { kind: "memory", workspace: null, memory: "0a1b2c3d" })).rejects.toThrow(
        "The memory could not be changed: another Oda Admin process is changing memories; try again in a moment.",
      );
      expect(snapshotFiles(world.home)).toEqual(before);
      expect(Object.values(snapshotFiles(world.state)).filter((v) => v !== "folder")).toEqual([]);
    } finally {
      other.kill("SIGKILL");
    }
  }, 30_000);
});

describe("older generations", () => {
  it("lists their space and archives the chosen ones into the admin state; undo brings them back", async () => {
    world = makeWorld(true);
    const dir = await writeChat(world.logs, "c-old", { compress: true, format: 1 });
    await upgradeToFormat4(world.logs, "c-old", { compress: true });
    const before = snapshotFiles(world.logs);
    const space = await spaceReport(world.roots);
    expect(space.olderGenerations).toBeGreaterThan(0);
    expect(space.keptByRepairs).toBe(0);
    const journal = await applyRepair(world.roots, { kind: "archive", chat: "c-old" });
    expect(readdirSync(dir).sort()).toEqual(["session.cache.json", "session.v4.jsonl.zstd"]);
    const after = await spaceReport(world.roots);
    expect(after.olderGenerations).toBe(0);
    expect(after.keptByRepairs).toBe(space.olderGenerations);
    await undoRepair(world.state, journal.id);
    expect(snapshotFiles(world.logs)).toEqual(before);
  });
});

describe("changing the folder's form", () => {
  it("converts every chat, skipping and listing the one a live writer holds", async () => {
    world = makeWorld(false);
    for (const id of ["c-a", "c-b", "c-c"]) await writeChat(world.logs, id, { compress: true });
    const held = locateChat(world.logs, "c-b").dir;
    writeFileSync(join(held, "session.lock"), `${JSON.stringify(describeThisProcess())}\n`);
    const seen: number[] = [];
    const job = await runFormJob(world.roots, { onProgress: (j) => seen.push(j.done.length + j.skipped.length) });
    expect(job?.done.map((d) => d.chat)).toEqual(["c-a", "c-c"]);
    expect(job?.skipped).toEqual([{ chat: "c-b", reason: 'session "c-b" is already owned by an active write handle' }]);
    expect(seen.at(-1)).toBe(3);
    expect(listJobs(world.state)[0]?.phase).toBe("done");
    expect((await listRepairable(world.roots)).map((r) => r.id)).toEqual(["form:c-b"]);
  });
});
