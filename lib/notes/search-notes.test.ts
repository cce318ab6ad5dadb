import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createChat } from "../../test-support/chats/testing";
import { runMain as run } from "../../test-support/run-cli";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { readLines } from "../chats/read";
import { refreshIndex, searchChats } from "../search-index";
import { addNote, noteCounts } from ".";

const newRoots = tempIndexRoots("oda-search-notes-");

describe("search limited to chats with notes (issue 29)", () => {
  it("finds the query only in chats with marks or notes, in the lib, with newest-first probing, and on the CLI", async () => {
    const { dir, logs, state } = newRoots();
    for (const [i, id] of ["c-one", "c-two", "c-three"].entries()) {
      const w = createChat(logs, { id, cwd: "/w", created: `2026-11-2${i}T09:00:00.000Z` }, { compress: false });
      await w.appendTurn({ user: `the budget of ${id}`, assistant: "ok", ts: `2026-11-2${i}T09:01:00.000Z` });
      await w.close();
    }
    const read = await readLines(logs, "c-two", { from: 2, count: 1, compress: false });
    await addNote(state, {
      chat: "c-two",
      generation: read.generation,
      line: 2,
      lineText: read.lines[0]?.raw as string,
      text: "",
    });
    await refreshIndex(state, logs, { compress: false });
    const ids = async (o: { onlyChats: string[] | null; walkFrom?: number }) =>
      (await searchChats(state, logs, { query: "budget", ...o })).groups.map((g) => g.id).sort();
    expect(await ids({ onlyChats: null })).toEqual(["c-one", "c-three", "c-two"]);
    expect(await ids({ onlyChats: [...noteCounts(state).keys()] })).toEqual(["c-two"]);
    expect(await ids({ onlyChats: [...noteCounts(state).keys()], walkFrom: 1 })).toEqual(["c-two"]);

    mkdirSync(join(dir, "home"));
    writeFileSync(join(dir, "home", "settings.json"), JSON.stringify({ sessions: { compress: false } }));
    const env = ["--logs", logs, "--state", state, "--home", join(dir, "home")];
    const all = await run("search", "budget", "--json", ...env);
    expect(JSON.parse(all.out).groups).toHaveLength(3);
    const noted = await run("search", "budget", "--with-notes", "--json", ...env);
    expect(noted.code).toBe(0);
    expect(JSON.parse(noted.out).groups.map((g: { id: string }) => g.id)).toEqual(["c-two"]);
  });
});
