import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { createChat } from "../../test-support/chats/testing";
import { runMain as run } from "../../test-support/run-cli";
import { readLines } from "../chats/read";
import { addNote, checkedNotes } from ".";

const T = "2026-11-29T18:00:";

describe("marks and notes", () => {
  it("survive an append, are reported lost when their line changed, and notes list says which", async () => {
    const root = tempDir();
    const logs = join(root, "logs");
    const state = join(root, "state");
    const w = createChat(logs, { id: "n/1", cwd: null, created: `${T}00.000Z` }, { compress: false });
    await w.appendTurn({ user: "first question", assistant: "first answer", ts: `${T}01.000Z` });
    const line = async (n: number) =>
      (await readLines(logs, "n/1", { from: n, count: 1, compress: false })).lines[0]?.raw ?? "";
    const generation = "session.v4.jsonl";
    await addNote(state, { chat: "n/1", generation, line: 2, lineText: await line(2), text: "" });
    await addNote(state, { chat: "n/1", generation, line: 3, lineText: await line(3), text: "check this answer" });
    await expect(
      addNote(state, { chat: "n/1", generation, line: 2, lineText: await line(2), text: "" }),
    ).rejects.toThrow("Line 2 is marked already.");
    // An append: both lines read as they did.
    await w.appendTurn({ user: "second question", assistant: "second answer", ts: `${T}02.000Z` });
    w.releaseLock();
    expect((await checkedNotes(state, logs, { chat: "n/1", compress: false })).map((n) => [n.line, n.state])).toEqual([
      [2, "kept"],
      [3, "kept"],
    ]);
    mkdirSync(join(root, "home"));
    writeFileSync(join(root, "home", "settings.json"), JSON.stringify({ sessions: { compress: false } }));
    const env = ["--logs", logs, "--state", state, "--home", join(root, "home")];
    const listed = await run("notes", "list", ...env);
    expect(listed.code).toBe(0);
    expect(listed.out).toBe("n/1  line 2  kept  (mark)\nn/1  line 3  kept  check this answer");
    // The chat list gives each chat with notes their count.
    const chats = JSON.parse((await run("chats", "list", "--json", ...env)).out).chats as {
      id: string;
      notes?: number;
    }[];
    expect(chats.map((c) => [c.id, c.notes])).toEqual([["n/1", 2]]);

    // The log rewritten with line 3 changed: that note is lost, never moved.
    const log = w.logPath;
    writeFileSync(log, readFileSync(log, "utf8").replace("first answer", "another answer"));
    const json = await run("notes", "list", "--chat", "n/1", "--json", ...env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out).notes.map((n: { line: number; state: string }) => [n.line, n.state])).toEqual([
      [2, "kept"],
      [3, "lost"],
    ]);
  });

  it("a note on a range keeps the hash of all its lines: kept after an append, lost when any one changed", async () => {
    const root = tempDir();
    const logs = join(root, "logs");
    const state = join(root, "state");
    const w = createChat(logs, { id: "r/1", cwd: null, created: `${T}00.000Z` }, { compress: false });
    await w.appendTurn({ user: "one question", assistant: "one answer", ts: `${T}01.000Z` });
    await w.appendTurn({ user: "two question", assistant: "two answer", ts: `${T}02.000Z` });
    const read = await readLines(logs, "r/1", { from: 2, count: 4, compress: false });
    const text = (from: number, to: number) =>
      read.lines
        .filter((l) => l.n >= from && l.n <= to)
        .map((l) => l.raw)
        .join("\n");
    const generation = read.generation;
    await addNote(state, { chat: "r/1", generation, line: 2, to: 3, lineText: text(2, 3), text: "first turn" });
    await addNote(state, { chat: "r/1", generation, line: 4, to: 5, lineText: text(4, 5), text: "second turn" });
    await expect(
      addNote(state, { chat: "r/1", generation, line: 4, to: 3, lineText: "", text: "backwards" }),
    ).rejects.toThrow("A note's range ends (line 3) before it starts (line 4).");
    await w.appendTurn({ user: "three", assistant: "three answer", ts: `${T}03.000Z` });
    w.releaseLock();
    const states = async () =>
      (await checkedNotes(state, logs, { chat: "r/1", compress: false })).map((n) => [n.line, n.to, n.state]);
    expect(await states()).toEqual([
      [2, 3, "kept"],
      [4, 5, "kept"],
    ]);
    // Only the range's last line changes: its note is lost, the other kept.
    writeFileSync(w.logPath, readFileSync(w.logPath, "utf8").replace("two question", "2 question"));
    expect(await states()).toEqual([
      [2, 3, "kept"],
      [4, 5, "lost"],
    ]);
    mkdirSync(join(root, "home"));
    writeFileSync(join(root, "home", "settings.json"), JSON.stringify({ sessions: { compress: false } }));
    const listed = await run("notes", "list", "--logs", logs, "--state", state, "--home", join(root, "home"));
    expect(listed.out).toBe("r/1  lines 2-3  kept  first turn\nr/1  lines 4-5  lost  second turn");
  });
});
