import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { leaveDeadLock, makeDeadHolder } from "../../test-support/chats/testing";
import { makeWorld, type RepairWorld, snapshotFiles, unzstdTool, writeChat } from "../../test-support/repair/testing";
import { describeThisProcess } from "../fs/lock";
import { applyRepair, readJournal, resumeRepairs } from ".";
import { type Journal, journalFolder, writeJournal } from "./journal";

let world: RepairWorld;
afterEach(() => world?.remove());

/**
 * The states a kill leaves, rebuilt by hand from a finished repair so each is
 * tested deterministically (kill.test.ts hits them at random): the journal
 * goes back to `phase`, held by a dead process whose session.lock stays.
 */
async function interrupted(
  phase: "staging" | "swapping",
): Promise<{ journal: Journal; dir: string; before: Record<string, string> }> {
  world = makeWorld(true);
  const dir = await writeChat(world.logs, "c-cut", { compress: false });
  const before = snapshotFiles(world.logs);
  const done = await applyRepair(world.roots, { kind: "form", chat: "c-cut" });
  const dead = makeDeadHolder();
  const holder = `${JSON.stringify(dead)}\n`;
  for (const f of done.files) {
    // the new file back at its temporary name, the original back in place
    if (f.after) renameSync(f.path, f.after.temp);
    if (f.before) copyFileSync(join(journalFolder(world.state, done.id), f.before.keep), f.path);
  }
  if (phase === "swapping") {
    // the first step (removing the plain log) happened before the kill; the renames had not
    const old = done.files[0];
    if (old) unlinkSync(old.path);
  }
  leaveDeadLock(dir, dead);
  const journal: Journal = { ...done, phase, holder, finishedAt: undefined };
  await writeJournal(world.state, journal);
  return { journal, dir, before };
}

describe("repair resume", () => {
  it("rolls back a repair stopped while staging: temporary files gone, every byte as before, the lock freed", async () => {
    const { journal, dir, before } = await interrupted("staging");
    expect(readdirSync(dir).some((n) => n.includes(".tmp-"))).toBe(true);
    expect(await resumeRepairs(world.state, { dryRun: true })).toMatchObject([
      { id: journal.id, action: "rolled back" },
    ]);
    expect(readJournal(world.state, journal.id)?.phase).toBe("staging");
    expect(await resumeRepairs(world.state)).toMatchObject([{ id: journal.id, action: "rolled back" }]);
    expect(snapshotFiles(world.logs)).toEqual(before);
    expect(existsSync(join(journalFolder(world.state, journal.id), "files"))).toBe(false);
    expect(readJournal(world.state, journal.id)?.phase).toBe("rolled-back");
  });

  it("finishes a repair stopped while swapping: the new form in place, the original removed, the lock freed", async () => {
    const { journal, dir, before } = await interrupted("swapping");
    expect(await resumeRepairs(world.state)).toMatchObject([{ id: journal.id, action: "finished" }]);
    expect(readdirSync(dir).sort()).toEqual(["session.cache.json", "session.v4.jsonl.zstd"]);
    const lines = unzstdTool(readFileSync(join(dir, "session.v4.jsonl.zstd")));
    expect(createHash("sha256").update(lines).digest("hex")).toBe(before[join(dir, "session.v4.jsonl")]);
    expect(readJournal(world.state, journal.id)?.phase).toBe("done");
    expect(await resumeRepairs(world.state)).toEqual([]);
  });

  it("leaves a repair whose process still runs alone", async () => {
    const { journal } = await interrupted("swapping");
    await writeJournal(world.state, { ...journal, holder: `${JSON.stringify(describeThisProcess())}\n` });
    const logs = snapshotFiles(world.logs);
    expect((await resumeRepairs(world.state)).map((o) => o.action)).toEqual(["left running"]);
    expect(snapshotFiles(world.logs)).toEqual(logs);
  });
});
