import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { duplicateSentence, scanLogFolder } from "./folder";
import { listAllChats } from "./list";
import { decodeName, encodeName, groupName, parseGroupName } from "./names";

/**
 * The folder walk keeps only names and makes a batch's locations when asked
 * for (`scanLogFolder`): every window of it is the same chats, in the same
 * order, with the same folder-level problems, as the whole walk.
 */

/** A log folder of bare chat folders (names are all the walk reads): groups, an empty one, duplicates, a bad name. */
function makeFolder(): string {
  const logs = tempDir();
  const chat = (cwd: string | null, id: string) =>
    mkdirSync(join(logs, groupName(cwd), encodeName(id)), { recursive: true });
  for (let i = 0; i < 7; i++) chat("/srv/a", `a-${i}`);
  mkdirSync(join(logs, groupName("/srv/empty")));
  for (let i = 0; i < 5; i++) chat("/srv/b", `b-${i}`);
  chat(null, "no cwd/é");
  // Stored in three places: refused in all of them, each later copy naming the first.
  for (const cwd of ["/srv/a", "/srv/b", null]) chat(cwd, "twice");
  mkdirSync(join(logs, groupName("/srv/b"), "bad%zz"));
  mkdirSync(join(logs, "not-a-group"));
  return logs;
}

describe("scanLogFolder", () => {
  it("gives any window of the chats as the whole walk has them, the refused duplicates left out", () => {
    const logs = makeFolder();
    const scan = scanLogFolder(logs);
    const all = scan.chatsAt(0, scan.total);
    expect(all.map((c) => c.id)).toEqual([
      "a-0",
      "a-1",
      "a-2",
      "a-3",
      "a-4",
      "a-5",
      "a-6",
      "b-0",
      "b-1",
      "b-2",
      "b-3",
      "b-4",
      "no cwd/é",
    ]);
    expect(all[12]).toEqual({
      id: "no cwd/é",
      folder: `_no-cwd/${encodeName("no cwd/é")}`,
      group: "_no-cwd",
      cwd: null,
      dir: join(logs, "_no-cwd", encodeName("no cwd/é")),
      root: all[0]?.root,
    });
    for (const size of [1, 2, 3, 5, 7, 20]) {
      const windows = [];
      for (let from = 0; from < scan.total; from += size) windows.push(...scan.chatsAt(from, from + size));
      expect(windows).toEqual(all);
    }
    const twice = (cwd: string | null) => join(logs, groupName(cwd), "twice");
    // In the walk's order: groups and names sorted by their bytes.
    expect(scan.problems.map((p) => p.message)).toEqual([
      `The folder name "bad%zz" does not decode to a chat id.`,
      `Chat "twice" is stored in two places: ${twice("/srv/a")} and ${twice("/srv/b")}.`,
      `Chat "twice" is stored in two places: ${twice("/srv/a")} and ${twice(null)}.`,
      `The folder "not-a-group" is not a chat group: its name is neither --<working folder>-- with a working folder that decodes, nor _no-cwd.`,
    ]);
  });

  it("lists in batches the same chats and problems, whatever the batch size", async () => {
    const logs = makeFolder();
    const ids = async (batchSize: number) => {
      const { chats, problems } = await listAllChats(logs, { batchSize });
      return { ids: chats.map((c) => c.id), problems: problems.map((p) => p.message) };
    };
    const whole = await ids(200);
    expect(whole.ids).toHaveLength(13);
    expect(await ids(3)).toEqual(whole);
    expect(await ids(1)).toEqual(whole);
  });

  it("reports chats stored twice and bad names in the order a walk with a map of ids met them", () => {
    // Random groups sharing names, with names that do not decode between them and a file among the folders.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return (seed >>> 16) % n;
    };
    let files = 0;
    for (let run = 0; run < 6; run++) {
      const logs = tempDir();
      const groups = ["_no-cwd", groupName("/srv/a"), groupName("/srv/b"), groupName("/x"), groupName("/é y")];
      for (const group of groups.slice(0, 2 + next(4))) {
        mkdirSync(join(logs, group));
        for (let i = 0; i < 30; i++) {
          const pick = next(40);
          const name = pick < 3 ? `bad%z${pick}` : encodeName(pick === 3 ? "ü" : `c-${pick}`);
          mkdirSync(join(logs, group, name), { recursive: true });
        }
        if (next(2)) writeFileSync(join(logs, group, "c-5.txt"), "");
      }
      const scan = scanLogFolder(logs);
      expect(scan.problems.map((p) => (p.kind === "special" ? `special ${p.path}` : p.message))).toEqual(mapWalk(logs));
      files += scan.problems.filter((p) => p.kind === "special").length;
      expect(scan.problems.some((p) => p.kind === "duplicate")).toBe(true);
    }
    expect(files).toBeGreaterThan(0);
  });
});

/** The problems' sentences as the walk made them with a map of every id (session 38's), for folders of folders. */
function mapWalk(logs: string): string[] {
  const out: string[] = [];
  const firstDir = new Map<string, string>();
  const sorted = (dir: string) => readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const g of sorted(logs)) {
    if (!parseGroupName(g.name)) continue;
    const groupDir = join(logs, g.name);
    const entries = sorted(groupDir);
    for (const e of entries) if (!e.isDirectory()) out.push(`special ${join(groupDir, e.name)}`);
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const dir = `${groupDir}${sep}${e.name}`;
      const id = decodeName(e.name);
      if (id === null) out.push(`The folder name "${e.name}" does not decode to a chat id.`);
      else if (firstDir.has(id)) out.push(duplicateSentence(id, firstDir.get(id) as string, dir));
      else firstDir.set(id, dir);
    }
  }
  return out;
}
