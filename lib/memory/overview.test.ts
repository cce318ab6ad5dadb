import { describe, expect, it } from "vitest";
import { freshHomePerTest } from "../../test-support/memory/test-home";
import { makeClock, memoryText, putFile } from "../../test-support/memory/testing";
import { createMemory, deleteMemory } from "./change";
import { listAllDeleted, listProblemFiles, memoryCounts, memoryOverview } from "./overview";
import { ZMemoryId, ZMemoryRef, ZSha256, ZVersionName, ZWorkspace } from "./schemas";

let home: string;
freshHomePerTest((h) => (home = h));

async function create(workspace: string | null, title: string, enabled = true): Promise<string> {
  const made = await createMemory(home, workspace, { title, text: `${title} text`, enabled });
  return made.memory?.id as string;
}

describe("aggregations over the whole home", () => {
  it("lists every deleted memory of every set, newest deletion first", async () => {
    const now = makeClock("2026-11-29T18:24:08.123Z", 1000);
    const a = await create(null, "Global one");
    const b = await create("acme", "Acme one");
    const c = await create(null, "Global two");
    await deleteMemory(home, null, a, { now });
    await deleteMemory(home, "acme", b, { now });
    await deleteMemory(home, null, c, { now });
    const deleted = await listAllDeleted(home);
    expect(deleted.map((d) => [d.workspace, d.id, d.title])).toEqual([
      [null, c, "Global two"],
      ["acme", b, "Acme one"],
      [null, a, "Global one"],
    ]);
  });

  it("counts memories, the ones on, workspaces and problems as Home shows them", async () => {
    await create(null, "On");
    await create("acme", "Off", false);
    await create("beta", "Also on");
    await putFile(home, "memory/global/0000000f", "no frontmatter here");
    expect(await memoryCounts(home)).toEqual({ memories: 3, enabled: 2, workspaces: 2, problems: 1 });
    const overview = await memoryOverview(home);
    expect(overview.sets.map((s) => s.workspace)).toEqual([null, "acme", "beta"]);
    expect(overview.budgets.length).toBeGreaterThan(0);
  });

  it("gives each problem its file's raw text and sha256 for the raw editor, and none for settings", async () => {
    await putFile(home, "memory/workspaces/acme/0000000e", "no frontmatter here");
    await putFile(home, "settings.json", "{ not json");
    await putFile(home, "memory/global/0000000a", memoryText("Fine", "text"));
    const problems = await listProblemFiles(home);
    const file = problems.find((p) => p.id === "0000000e");
    expect(file).toMatchObject({ workspace: "acme", raw: "no frontmatter here" });
    expect(file?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const settings = problems.find((p) => p.path === "settings.json");
    expect(settings).toMatchObject({ id: null, raw: null, sha256: null, line: null });
  });
});

describe("request schemas built from the contract's patterns", () => {
  it("accept exactly the names the store accepts", () => {
    expect(ZMemoryId.safeParse("0a1b2c3d").success).toBe(true);
    // The old action schema (`max(16)`) let these through to the store.
    for (const bad of ["0a1b2c3d0a1b2c3d", "0A1B2C3D", "../x", ""])
      expect(ZMemoryId.safeParse(bad).success).toBe(false);
    expect(ZWorkspace.safeParse(null).success).toBe(true);
    expect(ZWorkspace.safeParse("acme.dev_1").success).toBe(true);
    for (const bad of ["..", ".hidden", "a/b", "x".repeat(256)]) expect(ZWorkspace.safeParse(bad).success).toBe(false);
    expect(ZMemoryRef.safeParse({ workspace: "acme", id: "0a1b2c3d" }).success).toBe(true);
    expect(ZSha256.safeParse("a".repeat(64)).success).toBe(true);
    expect(ZSha256.safeParse("A".repeat(64)).success).toBe(false);
    expect(ZVersionName.safeParse("20261129T182408123Z-settings").success).toBe(true);
    expect(ZVersionName.safeParse("20261129T182408123Z-settings-2").success).toBe(true);
    expect(ZVersionName.safeParse("../deleted.json").success).toBe(false);
  });
});
