import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { makeDeadHolder } from "../../test-support/chats/testing";
import { tempFolder } from "../../test-support/test-temp";
import * as atomic from "../fs/atomic";
import { readProcessStartTime } from "../fs/lock";
import { discardStaged, type RepairPlan, removeEmptiedDirs, runRepair, swapFiles, withRepairLock } from "./engine";
import { changedSentence } from "./files";
import { factOf, type Journal, journalFolder, listJournals, readJournal } from "./journal";
import { thisHolder } from "./locks";

/**
 * The repair engine (`engine.ts`) driven directly with hand-made plans on real
 * files: what the journal says at each phase, the refusals of `swapFiles` when
 * a file changed, a rollback, and the folders it makes, fsyncs and removes.
 */

vi.mock("../fs/atomic", async (original) => {
  const real = await original<typeof import("../fs/atomic")>();
  return { ...real, fsyncFolder: vi.fn(real.fsyncFolder) };
});
const fsynced = vi.mocked(atomic.fsyncFolder);
beforeEach(() => {
  fsynced.mockClear();
});

/** A chat folder with two files, and the admin state beside it. */
function world(): { state: string; dir: string; base: string } {
  const base = tempFolder("oda-engine-");
  const dir = join(base, "logs", "c-1");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "a.jsonl"), "old a\n");
  writeFileSync(join(dir, "b.jsonl"), "old b\n");
  mkdirSync(join(base, "state"));
  return { base, dir, state: join(base, "state") };
}

const chatLock = (dir: string) => ({ type: "chat" as const, id: "c-1", dir });

/** Replaces a.jsonl with new bytes, removes b.jsonl, adds c.jsonl. */
function plan(dir: string, extra: Partial<RepairPlan> = {}): RepairPlan {
  return {
    summary: "Rewrite the chat",
    files: [
      { path: join(dir, "a.jsonl"), before: Buffer.from("old a\n"), after: Buffer.from("new a\n") },
      { path: join(dir, "b.jsonl"), before: Buffer.from("old b\n"), after: null },
      { path: join(dir, "sub", "c.jsonl"), before: null, after: Buffer.from("new c\n") },
    ],
    ...extra,
  };
}

describe("runRepair", () => {
  it("writes the locking journal first, stages under `staging`, swaps, and finishes `done`", async () => {
    const { state, dir, base } = world();
    const made = join(base, "made", "deep");
    const seen: Journal[] = [];
    const journal = await runRepair({
      state,
      kind: "form",
      subject: "c-1",
      lock: chatLock(dir),
      makeDirs: [made],
      plan: async () => {
        seen.push(...listJournals(state));
        return plan(dir, {
          verify: async (_file, staged) => {
            seen.push(...listJournals(state));
            expect(readFileSync(staged, "utf8")).toMatch(/^new /);
          },
        });
      },
    });
    const holder = thisHolder().content;
    expect(seen[0]).toEqual({
      id: journal.id,
      kind: "form",
      subject: "c-1",
      summary: "",
      createdAt: journal.createdAt,
      phase: "locking",
      lock: chatLock(dir),
      holder,
      files: [],
      dirs: { create: [made], remove: [] },
    });
    expect(seen.slice(1).map((j) => j.phase)).toEqual(["staging", "staging"]);
    expect(journal.files).toEqual([
      {
        path: join(dir, "a.jsonl"),
        before: { ...factOf(Buffer.from("old a\n")), keep: "files/0-a.jsonl" },
        after: { ...factOf(Buffer.from("new a\n")), temp: expect.stringContaining(join(dir, ".a.jsonl.")) },
      },
      {
        path: join(dir, "b.jsonl"),
        before: { ...factOf(Buffer.from("old b\n")), keep: "files/1-b.jsonl" },
        after: null,
      },
      {
        path: join(dir, "sub", "c.jsonl"),
        before: null,
        after: { ...factOf(Buffer.from("new c\n")), temp: expect.any(String) },
      },
    ]);
    expect(journal).toMatchObject({ phase: "done", summary: "Rewrite the chat", dirs: { create: [made], remove: [] } });
    expect(readJournal(state, journal.id)).toEqual(journal);
    const folder = journalFolder(state, journal.id);
    expect(readFileSync(join(folder, "files", "0-a.jsonl"), "utf8")).toBe("old a\n");
    expect(readFileSync(join(folder, "files", "1-b.jsonl"), "utf8")).toBe("old b\n");
    expect(readdirSync(dir).sort()).toEqual(["a.jsonl", "sub"]);
    expect(readFileSync(join(dir, "a.jsonl"), "utf8")).toBe("new a\n");
    expect(readFileSync(join(dir, "sub", "c.jsonl"), "utf8")).toBe("new c\n");
    expect(existsSync(made)).toBe(true);
    // staging fsyncs the copies' folder, then each folder a new file went to; swapping each file's folder
    expect(fsynced.mock.calls.map((c) => c[0])).toEqual([
      join(folder, "files"),
      dir,
      join(dir, "sub"),
      dir,
      dir,
      join(dir, "sub"),
    ]);
  });

  it("takes over the stale session.lock a killed repair of its own left, and no other", async () => {
    const { state, dir } = world();
    const stale = `${JSON.stringify(makeDeadHolder())}\n`;
    writeFileSync(join(dir, "session.lock"), stale);
    const options = { state, kind: "form" as const, subject: "c-1", lock: chatLock(dir), plan: async () => plan(dir) };
    await expect(runRepair(options)).rejects.toThrow(/^Chat "c-1" has a stale session.lock/);
    expect(listJournals(state)).toEqual([]);
    const done = await runRepair({ ...options, ownStale: [stale] });
    expect(done.phase).toBe("done");
    expect(existsSync(join(dir, "session.lock"))).toBe(false);
  });

  it("rolls back when a staged file fails its check: Oda's files untouched, the journal says why", async () => {
    const { state, dir, base } = world();
    const made = join(base, "made");
    const failure = runRepair({
      state,
      kind: "form",
      subject: "c-1",
      lock: chatLock(dir),
      makeDirs: [made],
      plan: async () =>
        plan(dir, {
          dirs: { create: [join(base, "planned", "x")] },
          verify: async () => {
            throw new Error("line 2 differs");
          },
        }),
    });
    await expect(failure).rejects.toThrow("line 2 differs");
    expect(readdirSync(dir).sort()).toEqual(["a.jsonl", "b.jsonl"]);
    expect(readFileSync(join(dir, "a.jsonl"), "utf8")).toBe("old a\n");
    const [journal] = listJournals(state);
    expect(journal).toMatchObject({ phase: "rolled-back", note: "line 2 differs", finishedAt: expect.any(String) });
    expect(journal?.dirs).toEqual({ create: [made, join(base, "planned", "x")], remove: [] });
    expect(existsSync(join(journalFolder(state, journal?.id as string), "files"))).toBe(false);
    expect(existsSync(made)).toBe(false);
  });

  it("leaves a swap stopped by a changed file at `swapping`, for resume to finish", async () => {
    const { state, dir } = world();
    const failure = runRepair({
      state,
      kind: "form",
      subject: "c-1",
      lock: chatLock(dir),
      plan: async () =>
        plan(dir, {
          verify: async (file) => {
            if (file.path.endsWith("c.jsonl")) writeFileSync(join(dir, "b.jsonl"), "changed b\n");
          },
        }),
    });
    await expect(failure).rejects.toThrow(changedSentence(join(dir, "b.jsonl")));
    const [journal] = listJournals(state);
    expect(journal?.phase).toBe("swapping");
    expect(journal?.note).toBeUndefined();
    expect(readFileSync(join(dir, "a.jsonl"), "utf8")).toBe("new a\n");
    expect(readFileSync(join(dir, "b.jsonl"), "utf8")).toBe("changed b\n");
  });

  it("is refused by a live writer before anything is staged, leaving no journal and no made folder", async () => {
    const { state, dir, base } = world();
    const live = { pid: process.pid, host: hostname(), startedAt: readProcessStartTime(process.pid)?.toISOString() };
    writeFileSync(join(dir, "session.lock"), `${JSON.stringify(live)}\n`);
    const made = join(base, "made");
    const failure = runRepair({
      state,
      kind: "form",
      subject: "c-1",
      lock: chatLock(dir),
      makeDirs: [made],
      plan: async () => plan(dir),
    });
    await expect(failure).rejects.toThrow('session "c-1" is already owned by an active write handle');
    expect(readdirSync(join(state, "repairs"))).toEqual([]);
    expect(existsSync(made)).toBe(false);
    expect(readFileSync(join(dir, "a.jsonl"), "utf8")).toBe("old a\n");
  });
});

describe("withRepairLock on the memory lock", () => {
  it("refuses with the busy sentence while another process holds it", async () => {
    const home = tempFolder("oda-engine-home-");
    mkdirSync(join(home, "memory-history"));
    const live = { pid: process.pid, host: hostname(), startedAt: readProcessStartTime(process.pid)?.toISOString() };
    writeFileSync(join(home, "memory-history", ".lock"), `${JSON.stringify({ ...live, note: "another" })}\n`);
    const run = vi.fn(async () => 1);
    await expect(withRepairLock({ type: "memory", home }, thisHolder(), [], run)).rejects.toMatchObject({
      code: "locked",
      message:
        "The memory could not be changed: another Oda Admin process is changing memories; try again in a moment.",
    });
    expect(run).not.toHaveBeenCalled();
  }, 30_000);
});

/** A journal of one replaced, one removed and one added file, staged by hand. */
function staged(dir: string, state: string): Journal {
  const files = [
    ["a.jsonl", "old a\n", "new a\n"],
    ["b.jsonl", "old b\n", null],
    ["c.jsonl", null, "new c\n"],
  ] as const;
  return {
    id: "20261129T182408123Z-form-c-1-abcdef",
    kind: "form",
    subject: "c-1",
    summary: "",
    createdAt: "2026-11-29T18:24:08.123Z",
    phase: "swapping",
    lock: chatLock(dir),
    holder: "{}\n",
    files: files.map(([name, before, after]) => {
      const temp = join(dir, `.${name}.tmp`);
      if (after) writeFileSync(temp, after);
      return {
        path: join(dir, name),
        before: before ? { ...factOf(Buffer.from(before)), keep: `files/${name}` } : null,
        after: after ? { ...factOf(Buffer.from(after)), temp } : null,
      };
    }),
    dirs: { create: [join(state, "x"), join(state, "x", "y")], remove: [] },
  };
}

describe("swapFiles", () => {
  it("puts the staged state in place, and again after a resume finds it half done", async () => {
    const { state, dir } = world();
    const journal = staged(dir, state);
    await swapFiles(journal);
    expect(readdirSync(dir).sort()).toEqual(["a.jsonl", "c.jsonl"]);
    expect(existsSync(join(state, "x", "y"))).toBe(true);
    await swapFiles(journal); // every temporary name already renamed, b already gone
    expect(readFileSync(join(dir, "a.jsonl"), "utf8")).toBe("new a\n");
    expect(readFileSync(join(dir, "c.jsonl"), "utf8")).toBe("new c\n");
  });

  it("renames over a target that already holds the new bytes", async () => {
    const { state, dir } = world();
    writeFileSync(join(dir, "a.jsonl"), "new a\n");
    await swapFiles(staged(dir, state));
    expect(readdirSync(dir).sort()).toEqual(["a.jsonl", "c.jsonl"]);
  });

  it("refuses a target changed since, staged or already swapped, and a changed file it would remove", async () => {
    const cases: [string, (dir: string) => void][] = [
      ["a.jsonl", (dir) => writeFileSync(join(dir, "a.jsonl"), "third a\n")],
      [
        "a.jsonl",
        (dir) => {
          writeFileSync(join(dir, "a.jsonl"), "third a\n");
          unlinkSync(join(dir, ".a.jsonl.tmp")); // as if renamed, then changed
        },
      ],
      ["b.jsonl", (dir) => writeFileSync(join(dir, "b.jsonl"), "third b\n")],
    ];
    for (const [name, change] of cases) {
      const { state, dir } = world();
      const journal = staged(dir, state);
      change(dir);
      const before = readFileSync(join(dir, name), "utf8");
      await expect(swapFiles(journal)).rejects.toMatchObject({
        code: "conflict",
        message: changedSentence(join(dir, name)),
      });
      expect(readFileSync(join(dir, name), "utf8")).toBe(before);
    }
  });
});

describe("removeEmptiedDirs and discardStaged", () => {
  it("removes emptied folders, skips gone ones, and throws on one that is not empty", async () => {
    const base = tempFolder("oda-engine-dirs-");
    mkdirSync(join(base, "empty"));
    mkdirSync(join(base, "full"));
    writeFileSync(join(base, "full", "f"), "");
    const journal = { dirs: { create: [], remove: [join(base, "gone"), join(base, "empty")] } } as unknown as Journal;
    await removeEmptiedDirs(journal);
    expect(readdirSync(base)).toEqual(["full"]);
    expect(fsynced.mock.calls.map((c) => c[0])).toEqual([base]);
    journal.dirs.remove = [join(base, "full")];
    await expect(removeEmptiedDirs(journal)).rejects.toMatchObject({ code: "ENOTEMPTY" });
  });

  it("removes the staged files, the kept copies and the made folders, innermost first; the journal stays", async () => {
    const { state, dir } = world();
    const journal = staged(dir, state);
    mkdirSync(join(state, "x", "y"), { recursive: true });
    mkdirSync(join(state, "z"));
    writeFileSync(join(state, "z", "someone's"), "");
    journal.dirs.create.push(join(state, "z"));
    const folder = journalFolder(state, journal.id);
    mkdirSync(join(folder, "files"), { recursive: true });
    writeFileSync(join(folder, "files", "a.jsonl"), "old a\n");
    writeFileSync(join(folder, "journal.json"), "{}\n");
    await discardStaged(state, journal);
    expect(readdirSync(dir).sort()).toEqual(["a.jsonl", "b.jsonl"]);
    expect(readdirSync(folder)).toEqual(["journal.json"]);
    expect(readdirSync(state).sort()).toEqual(["repairs", "z"]);
  });
});
