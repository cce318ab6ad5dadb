import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemory, createWorkspaceSet, listDeleted, listSet } from "../../lib/memory";
import { makeHome, memoryText, putFile } from "../../test-support/memory/testing";
import { runMain as run } from "../../test-support/run-cli";

let home: string;
let cleanup: () => Promise<void>;
let ids: string[];
beforeEach(async () => {
  ({ home, cleanup } = await makeHome());
  await createWorkspaceSet(home, "ws");
  ids = [];
  for (let i = 0; i < 3; i++)
    ids.push((await createMemory(home, "ws", { title: `M${i}`, text: `t${i}` })).memory?.id as string);
});
afterEach(() => cleanup());

const inWs = (...argv: string[]) => run("memory", ...argv, "--home", home, "--workspace", "ws");

describe("oda-admin memory, several ids", () => {
  it("turns several off, deletes and restores several, and undoes a bulk change", async () => {
    const off = await inWs("set", ...ids, "--off", "--json");
    expect(off.code).toBe(0);
    const { bulkId } = JSON.parse(off.out);
    expect((await listSet(home, "ws")).memories.map((m) => m.enabled)).toEqual([false, false, false]);
    const undo = await run("memory", "undo", "--bulk", bulkId, "--home", home);
    expect(undo.out).toBe(
      `Put back 3 of 3 memories.\nUndo all of it with: oda-admin memory undo --bulk ${undo.out.split("--bulk ")[1]}`,
    );
    expect((await listSet(home, "ws")).memories.map((m) => m.enabled)).toEqual([true, true, true]);

    const del = await inWs("delete", ids[0] as string, ids[1] as string);
    expect(del.out).toMatch(/^Deleted 2 of 2 memories\.\nUndo all of it with: oda-admin memory undo --bulk \S+$/);
    expect((await listDeleted(home, "ws")).map((d) => d.id).sort()).toEqual(ids.slice(0, 2).sort());
    expect((await inWs("restore", ids[0] as string, ids[1] as string)).code).toBe(0);
    expect(await listDeleted(home, "ws")).toEqual([]);
  });

  it("refuses the whole change with every reason, exit 1, nothing written", async () => {
    await putFile(home, "memory/workspaces/ws/0000000f", "no frontmatter\n");
    const before = await readFile(join(home, "memory/workspaces/ws", ids[0] as string), "utf8");
    const r = await inWs("set", ids[0] as string, "0000000f", "0000beef", "--on");
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      [
        "Nothing was changed, for 2 reasons:",
        "0000000f (workspace ws): The memory could not be changed: its file has a problem and only a person fixing the file may save it. The file does not start with a --- frontmatter block.",
        '0000beef (workspace ws): No memory with the id "0000beef" exists in this chat\'s memory. Call memory_list for the current ids.',
      ].join("\n"),
    );
    expect(await readFile(join(home, "memory/workspaces/ws", ids[0] as string), "utf8")).toBe(before);
  });

  it("moves several to another set", async () => {
    await createWorkspaceSet(home, "other");
    const r = await inWs("move", ...ids, "--to", "other", "--json");
    expect(JSON.parse(r.out).changed).toHaveLength(3);
    expect((await listSet(home, "other")).memories.map((m) => m.title)).toEqual(["M0", "M1", "M2"]);
    expect((await inWs("move", ids[0] as string)).err).toBe("Give --to KEY or --to-global.");
  });

  it("keeps one id's behaviour, and refuses a single-id option with several", async () => {
    expect((await inWs("set", ids[0] as string, ids[1] as string, "--text", "x")).err).toBe(
      "--text takes one memory id, not several.",
    );
    expect((await inWs("set", ids[0] as string, ids[1] as string)).err).toBe(
      "Give --on or --off to change several memories.",
    );
    expect((await inWs("restore", ids[0] as string, "not-a-version")).err).toBe(
      'No saved version "not-a-version" of this memory exists.',
    );
    await putFile(home, "memory/workspaces/ws/00000001", memoryText("One", "x"));
    expect((await inWs("delete", "00000001")).out).toBe("Deleted.");
  });
});
