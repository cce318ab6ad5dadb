import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { scanLogFolder } from "./folder";
import { type ChatFeed, walkInTurns } from "./folder-walk";
import { encodeName, groupName } from "./names";

/**
 * The walk in turns (`walkInTurns`, the Doctor page's): it hands out the first group's chats before later
 * groups are listed, and still finds every problem `scanLogFolder` finds, in the same words.
 */

/** Bare chat folders (names are all the walk reads): groups, an empty one, a chat in three places, bad names. */
function makeFolder(): string {
  const logs = tempDir();
  const chat = (cwd: string | null, id: string) =>
    mkdirSync(join(logs, groupName(cwd), encodeName(id)), { recursive: true });
  for (let i = 0; i < 7; i++) chat("/srv/a", `a-${i}`);
  mkdirSync(join(logs, groupName("/srv/empty")));
  for (let i = 0; i < 5; i++) chat("/srv/b", `b-${i}`);
  chat(null, "no cwd/é");
  for (const cwd of ["/srv/a", "/srv/b", null]) chat(cwd, "twice");
  mkdirSync(join(logs, groupName("/srv/b"), "bad%zz"));
  writeFileSync(join(logs, groupName("/srv/b"), "stray.txt"), "not a chat folder\n");
  mkdirSync(join(logs, "not-a-group"));
  return logs;
}

/** A turn the test lets go of: the walk waits after each group folder until `open`. */
function gate() {
  let groups = 0;
  let opened = false;
  const held: (() => void)[] = [];
  return {
    turn: () => {
      groups++;
      return opened ? Promise.resolve() : new Promise<void>((resume) => held.push(resume));
    },
    open: () => {
      opened = true;
      for (const resume of held.splice(0)) resume();
    },
    groups: () => groups,
  };
}

/** Everything the feed hands out, taking `size` at a time as soon as it has them. */
async function drain(feed: ChatFeed, size: number) {
  const ids: string[] = [];
  for (;;) {
    const chats = feed.take(size);
    ids.push(...chats.map((c) => c.id));
    if (chats.length) continue;
    if (feed.walked) return ids;
    await feed.more();
  }
}

const sorted = (messages: string[]) => [...messages].sort();

describe("walkInTurns", () => {
  it("hands out the chats and finds the problems of scanLogFolder, in the same words", async () => {
    const logs = makeFolder();
    const scan = scanLogFolder(logs);
    const whole = scan.chatsAt(0, scan.total).map((c) => c.id);
    for (const size of [1, 2, 5, 200]) {
      const feed = walkInTurns(logs, { sliceMs: 0 });
      while (!feed.walked) await feed.more();
      expect(await drain(feed, size)).toEqual(whole);
      expect(feed.total).toBe(scan.total);
      expect(sorted(feed.problems().map((p) => p.message))).toEqual(sorted(scan.problems.map((p) => p.message)));
      expect(feed.problems()).toEqual([]);
    }
  });

  it("hands out a group's chats before later groups are listed; a copy stored twice taken before the end is counted", async () => {
    const logs = makeFolder();
    const g = gate();
    const feed = walkInTurns(logs, { turn: g.turn });
    // Only the first group (/srv/a: a-0 … a-6 and one copy of "twice") is listed; the walk waits.
    expect(feed.walked).toBe(false);
    expect(g.groups()).toBe(1);
    expect(feed.take(10)).toEqual([]);
    const first = feed.take(8).map((c) => c.id);
    expect(first).toEqual(["a-0", "a-1", "a-2", "a-3", "a-4", "a-5", "a-6", "twice"]);
    expect(feed.problems()).toEqual([]);
    g.open();
    while (!feed.walked) await feed.more();
    const rest = await drain(feed, 3);
    // The copies met later are left out; the one handed out was read, and is in the total.
    expect(rest).toEqual(["b-0", "b-1", "b-2", "b-3", "b-4", "no cwd/é"]);
    expect(feed.total).toBe(14);
    const twice = (cwd: string | null) => join(logs, groupName(cwd), "twice");
    const messages = feed.problems().map((p) => p.message);
    expect(messages).toContain(`Chat "twice" is stored in two places: ${twice("/srv/a")} and ${twice("/srv/b")}.`);
    expect(messages).toContain(`Chat "twice" is stored in two places: ${twice("/srv/a")} and ${twice(null)}.`);
    expect(messages).toHaveLength(5);
  });

  it("gives the event loop turns within a large group folder", async () => {
    const logs = tempDir();
    for (let i = 0; i < 1500; i++) mkdirSync(join(logs, groupName("/big"), `c-${i}`), { recursive: true });
    let turns = 0;
    const feed = walkInTurns(logs, { sliceMs: 0 });
    const count = () => {
      if (feed.walked) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    expect(feed.walked).toBe(false);
    expect(feed.total).toBe(0);
    await drain(feed, 100);
    // Entries are read 256 between two looks at the clock: 1,500 of them give the loop five turns or more.
    expect(turns).toBeGreaterThanOrEqual(5);
    expect(feed.total).toBe(1500);
  });

  it("gives the event loop turns while it looks for chats stored twice, after every group is listed", async () => {
    const logs = tempDir();
    for (const cwd of ["/a", "/b"])
      for (let i = 0; i < 800; i++) mkdirSync(join(logs, groupName(cwd), `${cwd.slice(1)}-${i}`), { recursive: true });
    mkdirSync(join(logs, groupName("/b"), "a-7"));
    let merging = 0;
    const feed = walkInTurns(logs, { sliceMs: 0 });
    const count = () => {
      if (feed.walked) return;
      if (feed.total === 1601) merging++;
      setImmediate(count);
    };
    setImmediate(count);
    while (!feed.walked) await feed.more();
    // 1,601 names merged, 256 between two looks at the clock: six turns, one more after the last group.
    expect(merging).toBeGreaterThanOrEqual(4);
    expect(feed.total).toBe(1599);
    expect(feed.problems().map((p) => p.message)).toContainEqual(
      expect.stringMatching(/^Chat "a-7" is stored in two places: /),
    );
  });

  it("stops walking when the listing is left", async () => {
    const logs = makeFolder();
    const g = gate();
    const feed = walkInTurns(logs, { turn: g.turn });
    feed.stop();
    g.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(g.groups()).toBe(1);
    expect(feed.walked).toBe(false);
  });
});
