import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  makeWorld,
  type RepairWorld,
  snapshotFiles,
  unzstdTool,
  writeChat,
  zstdTool,
} from "../../test-support/repair/testing";
import { readChat } from "../chats";
import { describeThisProcess } from "../fs/lock";
import { applyRepair, listJournals, listRepairable, previewRepair, undoRepair } from ".";

let world: RepairWorld;
afterEach(() => world?.remove());

describe("wrong form", () => {
  it("converts a plain log (the project's writer) in a compressed folder, keeps the original, and undo restores every byte", async () => {
    world = makeWorld(true);
    const dir = await writeChat(world.logs, "c-plain", { compress: false });
    const plain = readFileSync(join(dir, "session.v4.jsonl"));
    const before = snapshotFiles(world.logs);
    expect((await readChat(world.logs, "c-plain", { compress: true })).problems.map((p) => p.kind)).toContain("form");
    const listed = await listRepairable(world.roots);
    expect(listed.map((r) => r.id)).toEqual(["form:c-plain"]);

    const preview = await previewRepair(world.roots, { kind: "form", chat: "c-plain" });
    expect(preview.changes.map((c) => [c.action, c.path])).toEqual([
      ["move to the admin state", join(dir, "session.v4.jsonl")],
      ["create", join(dir, "session.v4.jsonl.zstd")],
      ["replace", join(dir, "session.cache.json")],
    ]);
    expect(snapshotFiles(world.logs)).toEqual(before);

    const journal = await applyRepair(world.roots, { kind: "form", chat: "c-plain" });
    expect(journal.phase).toBe("done");
    expect(readdirSync(dir).sort()).toEqual(["session.cache.json", "session.v4.jsonl.zstd"]);
    expect(unzstdTool(readFileSync(join(dir, "session.v4.jsonl.zstd")))).toEqual(plain);
    const view = await readChat(world.logs, "c-plain", { compress: true });
    expect(view.problems).toEqual([]);
    expect(view.cacheState).toBe("cached");
    // the original, byte for byte, in the admin state
    const kept = journal.files.find((f) => f.path.endsWith("session.v4.jsonl"))?.before;
    expect(readFileSync(join(world.state, "repairs", journal.id, kept?.keep ?? "x"))).toEqual(plain);
    expect(readdirSync(dir).some((n) => n.includes(".tmp-"))).toBe(false);

    const undo = await undoRepair(world.state, journal.id);
    expect(undo.phase).toBe("done");
    expect(snapshotFiles(world.logs)).toEqual(before);
    expect(listJournals(world.state).find((j) => j.id === journal.id)?.undoneBy).toBe(undo.id);
    await expect(undoRepair(world.state, journal.id)).rejects.toThrow(/already undone/);
  });

  it("converts a log made by the zstd tool in a plain folder to plain lines, identical to zstd -dc", async () => {
    world = makeWorld(false);
    const dir = await writeChat(world.logs, "c-tool", { compress: false, turns: 5 });
    const plain = readFileSync(join(dir, "session.v4.jsonl"));
    writeFileSync(join(dir, "session.v4.jsonl.zstd"), zstdTool(plain));
    renameSync(join(dir, "session.v4.jsonl"), join(world.base, "moved-away"));
    const journal = await applyRepair(world.roots, { kind: "form", chat: "c-tool" });
    expect(readdirSync(dir).sort()).toEqual(["session.cache.json", "session.v4.jsonl"]);
    expect(readFileSync(join(dir, "session.v4.jsonl"))).toEqual(plain);
    expect((await readChat(world.logs, "c-tool", { compress: false })).problems).toEqual([]);
    expect(journal.files.map((f) => [f.before !== null, f.after !== null])).toEqual([
      [true, false],
      [false, true],
      [true, true],
    ]);
  });

  it("is refused by a live writer's session.lock with the seed's sentence, and nothing is touched", async () => {
    world = makeWorld(true);
    const dir = await writeChat(world.logs, "c-live", { compress: false });
    writeFileSync(join(dir, "session.lock"), `${JSON.stringify(describeThisProcess())}\n`);
    const logs = snapshotFiles(world.logs);
    await expect(applyRepair(world.roots, { kind: "form", chat: "c-live" })).rejects.toThrow(
      'session "c-live" is already owned by an active write handle',
    );
    expect(snapshotFiles(world.logs)).toEqual(logs);
    expect(Object.values(snapshotFiles(world.state)).filter((v) => v !== "folder")).toEqual([]);
  });

  it("refuses a chat holding the same log in both forms, touching nothing", async () => {
    world = makeWorld(true);
    const dir = await writeChat(world.logs, "c-both", { compress: false });
    writeFileSync(join(dir, "session.v4.jsonl.zstd"), zstdTool(readFileSync(join(dir, "session.v4.jsonl"))));
    const logs = snapshotFiles(world.logs);
    await expect(applyRepair(world.roots, { kind: "form", chat: "c-both" })).rejects.toThrow(
      'Chat "c-both" holds session.v4.jsonl and session.v4.jsonl.zstd, the same log in both forms',
    );
    expect(snapshotFiles(world.logs)).toEqual(logs);
    expect(readdirSync(dir).includes("session.lock")).toBe(false);
  });
});
