import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempFolder } from "../../test-support/test-temp";
import { DEFAULT_LIMITS } from "./limits";
import { listSet } from "./list-set";
import { readMemoryFile } from "./read-file";

/**
 * The read-time limits (`docs/file-contract.md`, A file with a problem): text
 * and title counted in code points, exactly at the limit and one over, read
 * from real files. Astral characters (two UTF-16 units, four UTF-8 bytes) keep
 * a count of code units or bytes from passing for a count of code points.
 */

const OVER = "The memory is longer than 2000 characters or its title longer than 120; shorten it in the file.";

function memoryFile(title: string, text: string): string {
  return `---\ntitle: ${title}\nenabled: true\nsource: user\ncreated: 2026-11-29T18:24:08.123Z\n---\n\n${text}\n`;
}

/** A global set with one file per case, the file names being their ids. */
function homeWith(files: Record<string, string>): string {
  const home = tempFolder("oda-limits-disk-");
  const set = join(home, "memory", "global");
  mkdirSync(set, { recursive: true });
  for (const [id, content] of Object.entries(files)) writeFileSync(join(set, id), content);
  return home;
}

// 2000 code points: 1000 astral (2 units each) and 1000 plain, so 3000 UTF-16 units.
const text2000 = "😀".repeat(1000) + "x".repeat(1000);
const text2001 = `${text2000}é`;
const title120 = "𝄞".repeat(60) + "t".repeat(60);
const title121 = `${title120}u`;

describe("memory limits, read from disk", () => {
  it("a text of exactly 2000 code points and a title of exactly 120 are within them", async () => {
    const home = homeWith({ "0000aaaa": memoryFile(title120, text2000) });
    const read = await readMemoryFile(join(home, "memory", "global", "0000aaaa"), DEFAULT_LIMITS);
    expect(read?.parse).toMatchObject({ ok: true, title: title120, text: text2000 });
    const set = await listSet(home, null, { limits: DEFAULT_LIMITS });
    expect(set.problems).toEqual([]);
    expect(set.memories.map((m) => [m.id, m.textChars, m.titleChars])).toEqual([["0000aaaa", 2000, 120]]);
  });

  it("2001 code points of text, or 121 of title, is a problem with the contract's sentence", async () => {
    const home = homeWith({
      "0000bbbb": memoryFile("t", text2001),
      "0000cccc": memoryFile(title121, "short"),
    });
    for (const id of ["0000bbbb", "0000cccc"]) {
      const read = await readMemoryFile(join(home, "memory", "global", id), DEFAULT_LIMITS);
      expect(read?.parse).toEqual({ ok: false, message: OVER });
    }
    const set = await listSet(home, null, { limits: DEFAULT_LIMITS });
    expect(set.memories).toEqual([]);
    expect(set.problems).toEqual([
      { id: "0000bbbb", path: "memory/global/0000bbbb", message: OVER },
      { id: "0000cccc", path: "memory/global/0000cccc", message: OVER },
    ]);
  });

  it("the limits come from the settings: 100 and 101 code points under textMaxChars 100", async () => {
    const limits = { ...DEFAULT_LIMITS, textMaxChars: 100 };
    const home = homeWith({
      "0000dddd": memoryFile("t", "😀".repeat(100)),
      "0000eeee": memoryFile("t", "😀".repeat(101)),
    });
    const set = await listSet(home, null, { limits });
    expect(set.memories.map((m) => m.id)).toEqual(["0000dddd"]);
    expect(set.problems.map((p) => [p.id, p.message])).toEqual([
      ["0000eeee", "The memory is longer than 100 characters or its title longer than 120; shorten it in the file."],
    ]);
  });
});
