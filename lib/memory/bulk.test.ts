import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshHomePerTest } from "../../test-support/memory/test-home";
import { makeClock, putFile } from "../../test-support/memory/testing";
import { isOdaError } from "../errors";
import { bulkChange, undoBulk } from "./bulk";
import { createMemory } from "./change";
import { listDeleted } from "./deleted";
import { listSet } from "./list-set";
import { writeSettings } from "./settings";
import { listVersions } from "./versions";
import { createWorkspaceSet } from "./workspace-set";

let home: string;
freshHomePerTest((h) => {
  home = h;
});

async function make(workspace: string | null, n: number, enabled = true, text = "Some text.") {
  if (workspace) await createWorkspaceSet(home, workspace);
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await createMemory(home, workspace, { title: `M${i}`, text, enabled })).memory?.id as string);
  return ids.map((id) => ({ workspace, id }));
}

/** Every file under the home with its bytes: what "nothing was written" compares. */
async function snapshot(dir = home): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || e.name === ".lock") continue;
    const path = join(e.parentPath, e.name);
    out[path.slice(home.length)] = await readFile(path, "utf8");
  }
  return out;
}

async function refusal(p: Promise<unknown>) {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isOdaError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe("bulk changes", () => {
  it("turns many off with one version each, reports the ones already off, and one Undo puts all back", async () => {
    const on = await make("ws", 3);
    const [off] = await make("ws", 1, false);
    const clock = makeClock("2026-11-30T10:00:00.000Z");
    const result = await bulkChange(home, [...on, off!], { kind: "off" }, { now: clock });
    expect(result.changed).toEqual(on);
    expect(result.unchanged).toEqual([{ ...off, message: "The memory was already turned off; nothing was saved." }]);
    expect((await listSet(home, "ws")).memories.every((m) => !m.enabled)).toBe(true);
    for (const t of on) expect(await listVersions(home, "ws", t.id)).toHaveLength(1);

    const undone = await undoBulk(home, result.bulkId as string);
    expect(undone.changed).toEqual([...on].reverse());
    const set = await listSet(home, "ws");
    expect(
      set.memories
        .filter((m) => m.enabled)
        .map((m) => m.id)
        .sort(),
    ).toEqual(on.map((t) => t.id).sort());
    expect(await listVersions(home, "ws", on[0]!.id)).toHaveLength(2);
  });

  it("refuses the whole change with every reason, and writes nothing", async () => {
    await writeSettings(home, { chatMaxTokens: 500 });
    const a = await make("a", 2, false, "x".repeat(1000));
    const b = await make("b", 2, false, "y".repeat(1000));
    const fine = await make("c", 1, false);
    const before = await snapshot();
    const error = await refusal(
      bulkChange(home, [...a, ...b, ...fine, { workspace: "c", id: "0000beef" }], { kind: "on" }),
    );
    const overBudget = [
      "This change would take the memory a chat in workspace a receives to 504 tokens; the limit is 500.",
      "This change would take the memory a chat in workspace b receives to 504 tokens; the limit is 500.",
    ];
    // every reason at once: the missing memory, and each chat the others would take over the limit
    expect(error.data?.reasons).toEqual([
      {
        workspace: "c",
        id: "0000beef",
        message:
          'No memory with the id "0000beef" exists in this chat\'s memory. Call memory_list for the current ids.',
      },
      { workspace: "a", id: null, message: overBudget[0] },
      { workspace: "b", id: null, message: overBudget[1] },
    ]);
    // with the missing id gone, the budget alone
    const budget = await refusal(bulkChange(home, [...a, ...b, ...fine], { kind: "on" }));
    expect(budget.data?.reasons?.map((r) => r.message)).toEqual(overBudget);
    expect(budget.message).toBe(
      `Nothing was changed, for 2 reasons:\n${budget.data?.reasons?.map((r) => r.message).join("\n")}`,
    );
    expect(await snapshot()).toEqual(before);
    // one memory per chat fits
    expect((await bulkChange(home, [a[0]!, b[0]!, ...fine], { kind: "on" })).changed).toHaveLength(3);
  });

  it("refuses restoring a memory over a limit, naming it", async () => {
    const [t] = await make("ws", 1, false, "z".repeat(150));
    await bulkChange(home, [t!], { kind: "delete" });
    await writeSettings(home, { textMaxChars: 100 });
    const error = await refusal(bulkChange(home, [t!], { kind: "restore" }));
    expect(error.message).toBe(
      `${t!.id} (workspace ws): A memory is limited to 100 characters; this one has 150. Shorten it or split it into several memories.`,
    );
  });

  it("deletes many into Recently deleted, restores many, and undoes a delete", async () => {
    const ts = await make(null, 3);
    const deleted = await bulkChange(home, ts, { kind: "delete" });
    expect((await listSet(home, null)).memories).toEqual([]);
    expect((await listDeleted(home, null)).map((d) => d.id).sort()).toEqual(ts.map((t) => t.id).sort());
    const restored = await bulkChange(home, ts.slice(0, 2), { kind: "restore" });
    expect(restored.changed).toEqual(ts.slice(0, 2));
    expect((await listSet(home, null)).memories.map((m) => m.id).sort()).toEqual(
      ts
        .slice(0, 2)
        .map((t) => t.id)
        .sort(),
    );
    // the delete's undo is refused whole: two of its memories changed since (they were restored)
    const error = await refusal(undoBulk(home, deleted.bulkId as string));
    expect(error.data?.reasons?.map((r) => r.id).sort()).toEqual(
      ts
        .slice(0, 2)
        .map((t) => t.id)
        .sort(),
    );
    await undoBulk(home, restored.bulkId as string);
    await undoBulk(home, deleted.bulkId as string);
    expect((await listSet(home, null)).memories.map((m) => m.text)).toEqual(["Some text.", "Some text.", "Some text."]);
    expect(await listDeleted(home, null)).toEqual([]);
  });

  it("moves memories to another set (a taken id gets a new one), and Undo moves them back", async () => {
    const ts = await make("from", 2);
    await createWorkspaceSet(home, "to");
    await putFile(
      home,
      `memory/workspaces/to/${ts[0]!.id}`,
      "---\ntitle: Taken\nenabled: true\nsource: user\n---\n\nX\n",
    );
    const moved = await bulkChange(home, ts, { kind: "move", to: "to" });
    expect(moved.changed[1]?.to).toEqual({ workspace: "to", id: ts[1]!.id });
    expect(moved.changed[0]?.to?.id).not.toBe(ts[0]!.id);
    expect((await listSet(home, "from")).memories).toEqual([]);
    expect((await listSet(home, "to")).memories.map((m) => m.title).sort()).toEqual(["M0", "M1", "Taken"]);
    await undoBulk(home, moved.bulkId as string);
    expect((await listSet(home, "from")).memories.map((m) => m.title)).toEqual(["M0", "M1"]);
    expect((await listSet(home, "to")).memories.map((m) => m.title)).toEqual(["Taken"]);
    await expect(bulkChange(home, ts, { kind: "move", to: "nowhere" })).rejects.toThrow(
      "No memory set exists for workspace nowhere.",
    );
  });

  it("refuses an unknown bulk id, and an id that is a path", async () => {
    await expect(undoBulk(home, "20261130T100000000Z-abcdef")).rejects.toThrow(
      'No bulk change "20261130T100000000Z-abcdef" is kept to undo.',
    );
    await expect(undoBulk(home, "../../etc/passwd")).rejects.toThrow("No bulk change");
  });
});
