import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempFolder } from "../../test-support/test-temp";
import {
  factOf,
  isRepairId,
  type Journal,
  journalFolder,
  listJournals,
  makeRepairId,
  readJournal,
  repairsFolder,
  sha256Of,
  writeJournal,
} from "./journal";

/** A repair journal's names and files (`journal.ts`) at their edges. */

const at = new Date("2026-11-29T18:24:08.123Z");

function journal(id: string): Journal {
  return {
    id,
    kind: "form",
    subject: "c-1",
    summary: "Convert",
    createdAt: at.toISOString(),
    phase: "done",
    lock: { type: "chat", id: "c-1", dir: "/logs/c-1" },
    holder: "{}\n",
    files: [],
    dirs: { create: [], remove: [] },
  };
}

describe("repair ids", () => {
  it("are the moment, the kind, the subject made safe (60 characters at most) and six hex digits", () => {
    expect(makeRepairId("form", "c-1", at)).toMatch(/^20261129T182408123Z-form-c-1-[0-9a-f]{6}$/);
    expect(makeRepairId("memory", "workspaces/ws 1/0a1b2c3d", at)).toMatch(
      /^20261129T182408123Z-memory-workspaces_ws_1_0a1b2c3d-[0-9a-f]{6}$/,
    );
    expect(makeRepairId("undo", "é/../x", at)).toMatch(/^20261129T182408123Z-undo-_\.\._x-[0-9a-f]{6}$/);
    expect(makeRepairId("archive", "", at)).toMatch(/^20261129T182408123Z-archive-_-[0-9a-f]{6}$/);
    const long = makeRepairId("form", "a".repeat(100), at);
    expect(long).toBe(`20261129T182408123Z-form-${"a".repeat(60)}-${long.slice(-6)}`);
    expect(makeRepairId("form", "c-1", at)).not.toBe(makeRepairId("form", "c-1", at)); // two repairs, two ids
    expect(isRepairId(makeRepairId("duplicate", "c-1"))).toBe(true);
  });

  it("isRepairId takes only that shape, never with ..", () => {
    expect(isRepairId("20261129T182408123Z-form-c-1-abcdef")).toBe(true);
    for (const bad of [
      "20261129T182408123Z-form-c..1-abcdef",
      "20261129T182408123Z-Form-c-1-abcdef",
      "20261129T182408123-form-c-1-abcdef",
      "2026112T182408123Z-form-c-1-abcdef",
      "20261129T18240812Z-form-c-1-abcdef",
      "x20261129T182408123Z-form-c-1-abcdef",
      "20261129T182408123Z-form-c/1",
      "20261129T182408123Z-form-",
      "20261129T182408123Z--c-1",
      "form:c-1",
    ])
      expect(isRepairId(bad), bad).toBe(false);
  });
});

describe("journal files", () => {
  it("facts are the size and SHA-256 of the bytes", () => {
    expect(sha256Of(Buffer.from("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(factOf(Buffer.from("abc"))).toEqual({
      size: 3,
      sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    });
  });

  it("are written as indented JSON under repairs/<id>/journal.json and read back; none, garbage or no id is null", async () => {
    const state = tempFolder("oda-journal-");
    const j = journal("20261129T182408123Z-form-c-1-abcdef");
    expect(repairsFolder(state)).toBe(join(state, "repairs"));
    expect(journalFolder(state, j.id)).toBe(join(state, "repairs", j.id));
    await writeJournal(state, j);
    expect(readFileSync(join(state, "repairs", j.id, "journal.json"), "utf8")).toBe(`${JSON.stringify(j, null, 2)}\n`);
    expect(readJournal(state, j.id)).toEqual(j);
    expect(readJournal(state, "20261129T182408123Z-form-c-2-abcdef")).toBeNull();
    mkdirSync(join(state, "repairs", "x"));
    writeFileSync(join(state, "repairs", "x", "journal.json"), JSON.stringify(j));
    expect(readJournal(state, "x")).toBeNull();
    mkdirSync(join(state, "repairs", "20261129T182408124Z-form-c-1-abcdef"));
    writeFileSync(join(state, "repairs", "20261129T182408124Z-form-c-1-abcdef", "journal.json"), "{");
    expect(readJournal(state, "20261129T182408124Z-form-c-1-abcdef")).toBeNull();
  });

  it("are listed newest first, leaving out other names and unreadable journals", async () => {
    const state = tempFolder("oda-journal-list-");
    expect(listJournals(state)).toEqual([]);
    const ids = [
      "20261129T182408123Z-form-c-1-abcdef",
      "20261130T000000000Z-undo-c-1-abcdef",
      "20261129T190000000Z-archive-c-2-abcdef",
    ];
    for (const id of ids) await writeJournal(state, journal(id));
    mkdirSync(join(state, "repairs", "20261201T000000000Z-form-empty-abcdef")); // no journal.json
    mkdirSync(join(state, "repairs", "notes"));
    writeFileSync(join(state, "repairs", "notes", "journal.json"), JSON.stringify(journal("notes")));
    expect(listJournals(state).map((j) => j.id)).toEqual([ids[1], ids[2], ids[0]]);
  });
});
