import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { freshHomePerTest } from "../../test-support/memory/test-home";
import { makeClock } from "../../test-support/memory/testing";
import { createMemory, setEnabled } from "./change";
import { chatPayload } from "./payload";
import { previewPayloadChange } from "./preview";

let home: string;
freshHomePerTest((h) => (home = h));
beforeEach(async () => {
  const now = makeClock("2026-11-29T18:24:08.123Z", 1000);
  await createMemory(home, null, { title: "Reply language", text: "Reply in English." }, { id: "aaaa0001", now });
  await createMemory(home, "reports", { title: "Tables", text: "Use tables." }, { id: "bbbb0002", now });
  await createMemory(home, "reports", { title: "Charts", text: "No pie charts." }, { id: "cccc0003", now });
  await setEnabled(home, "reports", "cccc0003", false, { now });
});

async function snapshot(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(`${p}:${await readFile(p, "utf8")}`);
    }
  };
  await walk(home);
  return out.sort();
}

describe("previewPayloadChange", () => {
  it("previews an edit's note and payload without writing anything", async () => {
    const files = await snapshot();
    const p = await previewPayloadChange(
      home,
      "reports",
      { workspace: null, id: "aaaa0001" },
      { kind: "edit", title: " Reply  language ", text: "Reply in French.\n" },
    );
    expect(p.note).toBe(
      "Your memory has changed.\n\nChanged:\n\n## Reply language\nReply in French.\n\nThis applies from now on; the rest of your memory is unchanged.",
    );
    expect(p.before).toEqual(await chatPayload(home, "reports"));
    expect(p.after.text).toBe("## Reply language\nReply in French.\n\n## Tables\nUse tables.");
    expect(p.problems).toEqual([]);
    expect(await snapshot()).toEqual(files);
  });

  it("previews turning on, turning off and deleting", async () => {
    const on = await previewPayloadChange(
      home,
      "reports",
      { workspace: "reports", id: "cccc0003" },
      { kind: "enabled", enabled: true },
    );
    expect(on.note).toContain("Added:\n\n## Charts\nNo pie charts.");
    const off = await previewPayloadChange(
      home,
      null,
      { workspace: null, id: "aaaa0001" },
      { kind: "enabled", enabled: false },
    );
    expect(off.note).toContain('Removed: "Reply language".');
    expect(off.after.text).toBe("");
    const del = await previewPayloadChange(
      home,
      "reports",
      { workspace: "reports", id: "bbbb0002" },
      { kind: "delete" },
    );
    expect(del.note).toContain('Removed: "Tables".');
  });

  it("answers null when the chat's payload would not change, and reports the field refusals", async () => {
    const p = await previewPayloadChange(
      home,
      "reports",
      { workspace: "reports", id: "cccc0003" },
      { kind: "edit", title: "", text: "x" },
    );
    expect(p.note).toBeNull();
    expect(p.problems.map((x) => x.message)).toEqual(["A memory needs a title."]);
  });

  it("refuses a memory the chat cannot see", async () => {
    await expect(
      previewPayloadChange(home, null, { workspace: "reports", id: "bbbb0002" }, { kind: "delete" }),
    ).rejects.toThrow('The memory "bbbb0002" of workspace reports is not sent to a chat in no workspace.');
    await expect(
      previewPayloadChange(home, null, { workspace: null, id: "dddd0004" }, { kind: "delete" }),
    ).rejects.toThrow('No memory with the id "dddd0004" exists in the global set.');
  });
});
