import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { createChat } from "../../test-support/chats/testing";
import { runMain as run } from "../../test-support/run-cli";
import { encodeName } from "./names";
import { isRacy, RACY_NS } from "./remembered";
import { identityNow, sameAndSettled } from "./stat-identity";

/**
 * The listing's memory (`remembered.ts`, the contract's "What Oda Admin may
 * remember between listings"): each identity of a chat changed in turn makes
 * that chat verified again, a racy file is verified again, and deleting the
 * admin state gives the same listing.
 */

const CWD = "/home/ana/reports";
const GROUP = `--${encodeName(CWD)}--`;
/** An hour ago: files this old are not racy. */
const OLD = new Date(Date.now() - 3600_000);

interface Entry {
  id: string;
  served: "memory" | "verified" | "rebuilt";
  messages: number;
  title: string | null;
  [key: string]: unknown;
}
interface Listing {
  chats: Entry[];
  served: { memory: number; verified: number; rebuilt: number };
}

async function makeChat(logs: string, id: string, checkpoint = true): Promise<string> {
  const w = createChat(logs, { id, cwd: CWD });
  await w.appendTurn({ user: `question for ${id}`, assistant: `answer for ${id}` });
  await w.close();
  const dir = join(logs, GROUP, encodeName(id));
  if (!checkpoint) rmSync(join(dir, "session.cache.json"));
  return dir;
}

/** Sets every file and folder under `dir` (and `dir`) to a modification time of `at`: none is racy then. */
function age(dir: string, at = OLD): void {
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    if (name.isDirectory()) age(path, at);
    else utimesSync(path, at, at);
  }
  utimesSync(dir, at, at);
}

async function list(logs: string, state?: string): Promise<Listing> {
  const args = ["sessions", "list", "--logs", logs, "--json", ...(state ? ["--state", state] : [])];
  const { code, out } = await run(...args);
  expect(code).toBe(0);
  return JSON.parse(out) as Listing;
}

/** The entries without the `served` label: what the listing says about each chat. */
const details = (l: Listing) => l.chats.map(({ served: _s, ...rest }) => rest);
const servedOf = (l: Listing) => Object.fromEntries(l.chats.map((c) => [c.id, c.served]));

/** A zstd frame holding one message line (the real `zstd` CLI). */
function messageFrame(text: string): Buffer {
  const line = `${JSON.stringify({ type: "message", ts: "2026-11-30T10:00:00.000Z", role: "user", content: [{ type: "text", text }] })}\n`;
  return execFileSync("zstd", ["-q", "-c"], { input: line });
}

/** A checkpoint's text with its title prefixed by `mark`. */
function retitled(path: string, mark: string): string {
  const doc = JSON.parse(readFileSync(path, "utf8"));
  doc.details.title = `${mark}${doc.details.title}`;
  return JSON.stringify(doc);
}

/** Three aged chats (two with a checkpoint, one without), listed once so the state remembers them. */
async function setup() {
  const logs = tempDir();
  const state = join(tempDir(), "state");
  const dirs = {
    a: await makeChat(logs, "c-a"),
    b: await makeChat(logs, "c-b"),
    c: await makeChat(logs, "c-c", false),
  };
  age(logs);
  const first = await list(logs, state);
  expect(servedOf(first)).toEqual({ "c-a": "verified", "c-b": "verified", "c-c": "rebuilt" });
  expect(first.served).toEqual({ memory: 0, verified: 2, rebuilt: 1 });
  const second = await list(logs, state);
  expect(second.served).toEqual({ memory: 3, verified: 0, rebuilt: 0 });
  expect(details(second)).toEqual(details(first));
  return { logs, state, dirs, log: (d: string) => join(d, "session.v4.jsonl.zstd") };
}

/** After a change: the chat `id` is read again (`how`), the others come from memory, and the details are those of a listing without memory. */
async function expectVerifiedAgain(
  logs: string,
  state: string,
  id: string,
  how: "verified" | "rebuilt" = "verified",
): Promise<Listing> {
  const after = await list(logs, state);
  const expected = { "c-a": "memory", "c-b": "memory", "c-c": "memory", [id]: how };
  expect(servedOf(after)).toEqual(expected);
  expect(details(after)).toEqual(details(await list(logs)));
  return after;
}

describe("the listing's memory (sessions list with an admin state)", () => {
  it("an append to the log (its modification time kept) is verified again", async () => {
    const { logs, state, dirs, log } = await setup();
    const before = statSync(log(dirs.c));
    appendFileSync(log(dirs.c), messageFrame("one more"));
    utimesSync(log(dirs.c), before.atime, before.mtime);
    const after = await expectVerifiedAgain(logs, state, "c-c", "rebuilt");
    expect(after.chats.find((c) => c.id === "c-c")?.messages).toBe(3);
  });

  it("a truncated log (its modification time kept) is verified again", async () => {
    const logs = tempDir();
    const state = join(tempDir(), "state");
    const dir = await makeChat(logs, "c-c", false);
    await makeChat(logs, "c-a");
    await makeChat(logs, "c-b");
    const log = join(dir, "session.v4.jsonl.zstd");
    const size = statSync(log).size;
    appendFileSync(log, messageFrame("to be cut"));
    age(logs);
    await list(logs, state);
    const full = await list(logs, state);
    expect(full.served.memory).toBe(3);
    expect(full.chats.find((c) => c.id === "c-c")?.messages).toBe(3);
    truncateSync(log, size);
    utimesSync(log, OLD, OLD);
    const after = await expectVerifiedAgain(logs, state, "c-c", "rebuilt");
    expect(after.chats.find((c) => c.id === "c-c")?.messages).toBe(2);
  });

  it("a replaced log (same bytes and times, another file) is verified again", async () => {
    const { logs, state, dirs, log } = await setup();
    const copy = join(dirs.c, "copy.tmp");
    copyFileSync(log(dirs.c), copy);
    renameSync(copy, log(dirs.c));
    utimesSync(log(dirs.c), OLD, OLD);
    utimesSync(dirs.c, OLD, OLD);
    await expectVerifiedAgain(logs, state, "c-c", "rebuilt");
  });

  it("a touched log, and a touched checkpoint, are verified again", async () => {
    const { logs, state, dirs, log } = await setup();
    const earlier = new Date(OLD.getTime() - 60_000);
    utimesSync(log(dirs.a), earlier, earlier);
    await expectVerifiedAgain(logs, state, "c-a");
    expect((await list(logs, state)).served.memory).toBe(3);
    utimesSync(join(dirs.b, "session.cache.json"), earlier, earlier);
    await expectVerifiedAgain(logs, state, "c-b");
  });

  it("a checkpoint rewritten with other details (its time kept) is verified again", async () => {
    const { logs, state, dirs } = await setup();
    const path = join(dirs.a, "session.cache.json");
    writeFileSync(path, retitled(path, "X"));
    utimesSync(path, OLD, OLD);
    const after = await expectVerifiedAgain(logs, state, "c-a");
    expect(after.chats.find((c) => c.id === "c-a")?.title).toMatch(/^X/);
  });

  it("a chat folder renamed away and back, or into another group, is verified again", async () => {
    const { logs, state, dirs } = await setup();
    renameSync(dirs.b, `${dirs.b}.away`);
    renameSync(`${dirs.b}.away`, dirs.b);
    utimesSync(join(logs, GROUP), OLD, OLD);
    await expectVerifiedAgain(logs, state, "c-b");
    // Moved to another working folder's group: another place, so nothing remembered there.
    const other = join(logs, `--${encodeName("/home/ana/other")}--`);
    mkdirSync(other);
    renameSync(dirs.b, join(other, "c-b"));
    const moved = await list(logs, state);
    // (Its header names the first working folder: a problem, and the checkpoint is discarded.)
    expect(servedOf(moved)).toEqual({ "c-a": "memory", "c-c": "memory", "c-b": "rebuilt" });
    expect(details(moved)).toEqual(details(await list(logs)));
  });

  it("a chat whose files are not 2 seconds older than its verification is verified again at the next listing, even unchanged", async () => {
    const { logs, state } = await setup();
    const dir = await makeChat(logs, "c-new");
    // Dated a minute ahead: however long the listing takes on a loaded machine, its verification falls within 2
    // seconds of (here: before) the files' modification time, as for a file written during the listing.
    age(dir, new Date(Date.now() + 60_000));
    const first = await list(logs, state);
    expect(servedOf(first)["c-new"]).toBe("verified");
    // Nothing changed since, but the files are racy.
    const second = await list(logs, state);
    expect(servedOf(second)).toEqual({ "c-a": "memory", "c-b": "memory", "c-c": "memory", "c-new": "verified" });
    // A write meanwhile is seen.
    const path = join(dir, "session.cache.json");
    writeFileSync(path, retitled(path, "Y"));
    const third = await list(logs, state);
    expect(third.chats.find((c) => c.id === "c-new")?.title).toMatch(/^Y/);
    expect(details(third)).toEqual(details(await list(logs)));
    // Once old, it is served from memory.
    age(dir);
    await list(logs, state);
    expect((await list(logs, state)).served.memory).toBe(4);
  });

  it("the admin state deleted: the same listing, every chat read again", async () => {
    const { logs, state } = await setup();
    const remembered = await list(logs, state);
    rmSync(state, { recursive: true });
    const again = await list(logs, state);
    expect(again.served).toEqual({ memory: 0, verified: 2, rebuilt: 1 });
    expect(details(again)).toEqual(details(remembered));
    // A damaged memory file is the same: made anew.
    writeFileSync(join(state, "listing.sqlite"), "not a database");
    for (const suffix of ["-wal", "-shm"]) rmSync(join(state, `listing.sqlite${suffix}`), { force: true });
    const damaged = await list(logs, state);
    expect(damaged.served).toEqual({ memory: 0, verified: 2, rebuilt: 1 });
    expect(details(damaged)).toEqual(details(remembered));
  });

  it("the text listing ends with how its chats were served", async () => {
    const { logs, state } = await setup();
    const { out } = await run("sessions", "list", "--logs", logs, "--state", state);
    const lines = out.split("\n");
    expect(lines.at(-1)).toBe("3 chats: 3 served from memory, 0 verified again, 0 rebuilt from the log.");
    // The chat without a checkpoint was rebuilt from its log when first listed: served again under that label.
    expect(lines.find((l) => l.startsWith("c-c "))).toContain("  rebuilt  ");
    expect(lines.find((l) => l.startsWith("c-a "))).toContain("  cached  ");
  });

  it("racy: a modification time within 2 seconds of the verification, or after it", () => {
    const at = 10_000_000_000n;
    const id = (mtime: bigint) => `1:2:3:${mtime}:${mtime}`;
    expect(isRacy([id(at - RACY_NS - 1n)], at)).toBe(false);
    expect(isRacy([id(at - RACY_NS)], at)).toBe(true);
    expect(isRacy(["-", id(at + 5n)], at)).toBe(true);
    expect(isRacy(["-"], at)).toBe(false);
  });

  it("a served chat's file: the same identity and settled, by the same 2 seconds (`sameAndSettled`)", () => {
    const dir = tempDir();
    const path = join(dir, "f");
    writeFileSync(path, "x");
    const id = identityNow(path);
    const mtime = statSync(path, { bigint: true }).mtimeNs;
    expect(sameAndSettled(path, id, mtime + RACY_NS + 1n)).toBe(true);
    expect(sameAndSettled(path, id, mtime + RACY_NS)).toBe(false);
    expect(sameAndSettled(path, id, mtime - 5n)).toBe(false);
    expect(sameAndSettled(path, `${id}0`, mtime + RACY_NS + 1n)).toBe(false);
    // An absent file is "-" and never racy; a file where none was remembered is a change.
    expect(sameAndSettled(join(dir, "none"), "-", 0n)).toBe(true);
    expect(sameAndSettled(path, "-", mtime + RACY_NS + 1n)).toBe(false);
    // A path that cannot be looked at (a link to itself: ELOOP) is not the same: the full rule reads it.
    const loop = join(dir, "loop");
    symlinkSync("loop", loop);
    expect(sameAndSettled(loop, id, mtime + RACY_NS + 1n)).toBe(false);
    expect(sameAndSettled(loop, "-", mtime + RACY_NS + 1n)).toBe(false);
  });
});

describe("the big chat's line count, remembered with the log's identity", () => {
  it("is served while the log is unchanged and not racy; an append, a touch or a fresh write counts again", async () => {
    const logs = tempDir();
    const state = join(tempDir(), "state");
    const dir = await makeChat(logs, "c-big");
    const log = join(dir, "session.v4.jsonl.zstd");
    age(logs);
    const { workerApi, prepareWorker } = await import("./worker-api");
    const { rememberedLineCount } = await import("./remembered");
    prepareWorker(state);
    const counted = await workerApi.indexChat(logs, "c-big", { compress: true });
    expect(counted.lines).toBe(4);
    expect(rememberedLineCount(state, log)).toEqual({ lines: 4, decodedBytes: counted.decodedBytes });
    // Appended (its time kept): another size.
    appendFileSync(log, messageFrame("more"));
    utimesSync(log, OLD, OLD);
    expect(rememberedLineCount(state, log)).toBeNull();
    expect((await workerApi.indexChat(logs, "c-big", { compress: true })).lines).toBe(5);
    expect(rememberedLineCount(state, log)?.lines).toBe(5);
    // Touched: another modification time.
    utimesSync(log, new Date(OLD.getTime() - 60_000), new Date(OLD.getTime() - 60_000));
    expect(rememberedLineCount(state, log)).toBeNull();
    // Counted within 2 seconds of its last write: racy, counted again at the next visit.
    await workerApi.indexChat(logs, "c-big", { compress: true });
    expect(rememberedLineCount(state, log)?.lines).toBe(5);
    appendFileSync(log, messageFrame("now"));
    // Dated ahead, so the count falls within 2 seconds of the write however slow the machine.
    utimesSync(log, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    await workerApi.indexChat(logs, "c-big", { compress: true });
    expect(rememberedLineCount(state, log)).toBeNull();
    prepareWorker(null);
  });

  it("is taken up by a later thread with its seek points instead of reading the log again, while unchanged", async () => {
    const logs = tempDir();
    const state = join(tempDir(), "state");
    const dir = await makeChat(logs, "c-big");
    const log = join(dir, "session.v4.jsonl.zstd");
    age(logs);
    const { workerApi, prepareWorker } = await import("./worker-api");
    const { forgetIndexes, indexStats } = await import("./line-index");
    prepareWorker(state);
    const read = indexStats.scans;
    const counted = await workerApi.indexChat(logs, "c-big", { compress: true });
    expect(indexStats.scans).toBe(read + 1);
    // A new thread: nothing in memory, the index comes from the admin state, the log is not read for it.
    forgetIndexes();
    expect(await workerApi.indexChat(logs, "c-big", { compress: true })).toEqual(counted);
    forgetIndexes();
    const last = await workerApi.readLines(logs, "c-big", { compress: true, from: 0, count: 1 });
    expect(last.total).toBe(4);
    expect(last.lines.map((l) => l.n)).toEqual([4]);
    expect(indexStats.scans).toBe(read + 1);
    // Touched: read again.
    forgetIndexes();
    utimesSync(log, new Date(OLD.getTime() - 60_000), new Date(OLD.getTime() - 60_000));
    await workerApi.indexChat(logs, "c-big", { compress: true });
    expect(indexStats.scans).toBe(read + 2);
    // A record that is not an index of this log is not trusted: read again.
    const db = new Database(join(state, "listing.sqlite"));
    const kept = JSON.parse(
      (db.prepare("SELECT line_index FROM line_counts").get() as { line_index: string }).line_index,
    );
    expect(kept.points.length).toBeGreaterThan(0);
    db.prepare("UPDATE line_counts SET line_index = ?").run(JSON.stringify({ ...kept, path: "/elsewhere" }));
    db.close();
    forgetIndexes();
    await workerApi.indexChat(logs, "c-big", { compress: true });
    expect(indexStats.scans).toBe(read + 3);
    // No admin state (the CLI): nothing remembered, read each time.
    prepareWorker(null);
    forgetIndexes();
    await workerApi.indexChat(logs, "c-big", { compress: true });
    expect(indexStats.scans).toBe(read + 4);
  });
});
