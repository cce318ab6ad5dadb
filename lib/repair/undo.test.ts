import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type RepairWorld, snapshotFiles, writeChat } from "../../test-support/repair/testing";
import { applyRepair, undoRepair } from ".";
import { changedSentence } from "./files";
import { journalFolder, readJournal, writeJournal } from "./journal";
import { findRepair } from "./undo";

/**
 * Undo's refusals (`undo.ts`): a kept copy that no longer matches its SHA-256,
 * or a file changed since the repair, refuses the whole undo and changes no
 * byte, in the log folder or in the admin state.
 */

let world: RepairWorld;
afterEach(() => world?.remove());

/** A compressed chat in a plain log folder, converted by a `form` repair: the original is kept, the new log staged. */
async function convertedChat() {
  world = makeWorld(false);
  await writeChat(world.logs, "c-form", { compress: true, turns: 2 });
  const journal = await applyRepair(world.roots, { kind: "form", chat: "c-form" });
  const replaced = journal.files.find((f) => f.before && f.after);
  expect(replaced).toBeDefined();
  return { journal, file: replaced as NonNullable<typeof replaced> };
}

describe("undoRepair refuses and changes nothing", () => {
  it("when a kept original is damaged (its bytes no longer match the journal's SHA-256)", async () => {
    const { journal } = await convertedChat();
    const kept = journal.files.find((f) => f.before);
    const keep = kept?.before?.keep as string;
    const keptPath = join(journalFolder(world.state, journal.id), keep);
    const bytes = readFileSync(keptPath);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1; // same size, other bytes
    writeFileSync(keptPath, bytes);
    const logs = snapshotFiles(world.logs);
    const state = snapshotFiles(world.state);
    await expect(undoRepair(world.state, journal.id)).rejects.toMatchObject({
      code: "unusable",
      message: `The kept copy ${keep} of repair ${journal.id} is damaged; nothing was changed.`,
    });
    expect(snapshotFiles(world.logs)).toEqual(logs);
    expect(snapshotFiles(world.state)).toEqual(state);
    expect(readJournal(world.state, journal.id)?.undoneBy).toBeUndefined();
  });

  it("when a file the repair wrote changed since, even at the same size and mtime", async () => {
    const { journal, file } = await convertedChat();
    const { mtime } = statSync(file.path);
    const bytes = readFileSync(file.path);
    bytes[10] = (bytes[10] as number) ^ 1;
    writeFileSync(file.path, bytes);
    utimesSync(file.path, mtime, mtime);
    const logs = snapshotFiles(world.logs);
    const state = snapshotFiles(world.state);
    await expect(undoRepair(world.state, journal.id)).rejects.toMatchObject({
      code: "conflict",
      message: changedSentence(file.path),
    });
    expect(changedSentence(file.path)).toBe(
      `${file.path} changed since the repair was prepared; nothing more was changed. Look at the file, then try again.`,
    );
    expect(snapshotFiles(world.logs)).toEqual(logs);
    expect(snapshotFiles(world.state)).toEqual(state);
  });

  it("when the repair did not finish", async () => {
    const { journal } = await convertedChat();
    await writeJournal(world.state, { ...journal, phase: "swapping" });
    const logs = snapshotFiles(world.logs);
    await expect(undoRepair(world.state, journal.id)).rejects.toMatchObject({
      code: "refused",
      message: `Repair ${journal.id} did not finish (swapping); run oda-admin repair resume first.`,
    });
    expect(snapshotFiles(world.logs)).toEqual(logs);
  });

  it("when a file the repair moved away was made again", async () => {
    const { journal } = await convertedChat();
    const moved = journal.files.find((f) => f.before && !f.after);
    expect(moved).toBeDefined();
    const path = moved?.path as string;
    writeFileSync(path, "made again\n");
    const logs = snapshotFiles(world.logs);
    await expect(undoRepair(world.state, journal.id)).rejects.toThrow(changedSentence(path));
    expect(snapshotFiles(world.logs)).toEqual(logs);
  });

  it("and with nothing changed, undo puts every byte back (the same setup is not refused by itself)", async () => {
    world = makeWorld(false);
    await writeChat(world.logs, "c-form", { compress: true, turns: 2 });
    const before = snapshotFiles(world.logs);
    const journal = await applyRepair(world.roots, { kind: "form", chat: "c-form" });
    const undo = await undoRepair(world.state, journal.id);
    expect(undo).toMatchObject({ kind: "undo", undoOf: journal.id, phase: "done" });
    expect(undo.summary).toBe(`Undo repair ${journal.id}: ${journal.summary}`);
    expect(undo.dirs).toEqual({ create: [], remove: [] }); // the chat's folder stayed: none to make again
    expect(snapshotFiles(world.logs)).toEqual(before);
    expect(readJournal(world.state, journal.id)?.undoneBy).toBe(undo.id);
    await expect(undoRepair(world.state, journal.id)).rejects.toMatchObject({
      code: "refused",
      message: `Repair ${journal.id} was already undone by ${undo.id}.`,
    });
    await expect(undoRepair(world.state, undo.id)).rejects.toMatchObject({
      code: "refused",
      message: `Repair ${undo.id} is an undo; apply the repair again instead.`,
    });
    await expect(undoRepair(world.state, "20261129T182408123Z-form-nope-abcdef")).rejects.toMatchObject({
      code: "not_found",
      message:
        'No repair "20261129T182408123Z-form-nope-abcdef" is in the admin state; oda-admin repair done lists the repairs made, with their ids.',
    });
  });
});

// Written from the survivors of `npm run mutate` (docs/mutation.md): a repair named by the id it was offered under.
describe("undoRepair by the id a repair was offered under", () => {
  it("undoes the latest repair of that offer, never an undo; an offer never repaired, or no id at all, is not found", async () => {
    world = makeWorld(false);
    await writeChat(world.logs, "c-form", { compress: true, turns: 2 });
    const before = snapshotFiles(world.logs);
    const journal = await applyRepair(world.roots, { kind: "form", chat: "c-form" });
    expect(findRepair(world.state, "form:c-form").id).toBe(journal.id);
    const undo = await undoRepair(world.state, "form:c-form");
    expect(undo.undoOf).toBe(journal.id);
    expect(snapshotFiles(world.logs)).toEqual(before);
    // The undo, now the newest journal, is not a form repair: the form repair is still the one found.
    expect(findRepair(world.state, "form:c-form").id).toBe(journal.id);
    await expect(undoRepair(world.state, "form:c-other")).rejects.toMatchObject({
      code: "not_found",
      message: "No repair of form:c-other was made; oda-admin repair done lists the repairs made, with their ids.",
    });
    await expect(undoRepair(world.state, "archive:c-form")).rejects.toMatchObject({ code: "not_found" });
    await expect(undoRepair(world.state, "c-form")).rejects.toMatchObject({
      code: "not_found",
      message:
        'No repair "c-form" is in the admin state; oda-admin repair done lists the repairs made, with their ids.',
    });
  });
});
