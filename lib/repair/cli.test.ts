import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../cli/main";
import { makeWorld, type RepairWorld, snapshotFiles, writeChat } from "../../test-support/repair/testing";

let world: RepairWorld;
afterEach(() => world?.remove());

async function run(...argv: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  const out: string[] = [];
  const code = await main([...argv, "--json", "--home", world.home, "--logs", world.logs, "--state", world.state], {
    out: (t) => out.push(t),
    err: () => undefined,
  });
  return { code, json: JSON.parse(out.join("")) };
}

describe("oda-admin repair", () => {
  it("lists, previews (changing nothing), applies, lists the repair made, undoes and resumes", async () => {
    world = makeWorld(true);
    const dir = await writeChat(world.logs, "c-cli", { compress: false });
    const before = snapshotFiles(world.logs);

    const list = await run("repair", "list");
    expect((list.json.repairs as { id: string }[]).map((r) => r.id)).toEqual(["form:c-cli"]);

    const dry = await run("repair", "apply", "form:c-cli", "--dry-run");
    expect(dry.code).toBe(0);
    expect((dry.json.preview as { changes: unknown[] }).changes).toHaveLength(3);
    expect(snapshotFiles(world.logs)).toEqual(before);

    const applied = await run("repair", "apply", "form:c-cli");
    expect(applied.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["session.cache.json", "session.v4.jsonl.zstd"]);
    const id = (applied.json.repair as { id: string }).id;
    expect((await run("repair", "list")).json.repairs).toEqual([]);
    expect(((await run("repair", "done")).json.repairs as { id: string }[]).map((r) => r.id)).toEqual([id]);

    expect((await run("repair", "undo", id)).code).toBe(0);
    expect(snapshotFiles(world.logs)).toEqual(before);
    expect(readFileSync(join(dir, "session.v4.jsonl")).length).toBeGreaterThan(0);

    const resumed = await run("repair", "resume");
    expect(resumed.json).toMatchObject({ ok: true, repairs: [], job: null });
  });

  it("undoes the latest repair of the id repair list offered", async () => {
    world = makeWorld(true);
    await writeChat(world.logs, "c-cli", { compress: false });
    const before = snapshotFiles(world.logs);
    const applied = await run("repair", "apply", "form:c-cli");
    const id = (applied.json.repair as { id: string }).id;

    const undone = await run("repair", "undo", "form:c-cli");
    expect(undone.code).toBe(0);
    expect(undone.json.repair).toMatchObject({ kind: "undo", undoOf: id });
    expect(snapshotFiles(world.logs)).toEqual(before);

    const again = await run("repair", "undo", "form:c-cli");
    expect(again.code).toBe(1);
    expect((again.json.error as { message: string }).message).toMatch(
      new RegExp(`^Repair ${id} was already undone by .*-undo-c-cli-`),
    );
    const never = await run("repair", "undo", "form:c-other");
    expect(never.json.error).toEqual({
      code: "not_found",
      message: "No repair of form:c-other was made; oda-admin repair done lists the repairs made, with their ids.",
    });
  });

  it("refuses an unknown repair id and a duplicate without the copy to set aside", async () => {
    world = makeWorld(true);
    const bad = await run("repair", "apply", "nonsense");
    expect(bad.code).toBe(2);
    const both = await run("repair", "apply", "form:c-x", "--all");
    expect(both).toMatchObject({
      code: 2,
      json: { error: { message: 'Give a repair id or --all, not both ("form:c-x" and --all).' } },
    });
    expect(bad.json.error).toEqual({
      code: "bad_input",
      message: '"nonsense" is not a repair id; run oda-admin repair list to see them.',
    });
    const dup = await run("repair", "apply", "duplicate:c-x");
    expect(dup.json.error).toMatchObject({
      message: 'Choose which copy of chat "c-x" to set aside (--set-aside FOLDER).',
    });
  });
});
