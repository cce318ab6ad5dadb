import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { encodeName, groupName, NO_CWD_GROUP } from "../../lib/chats/names";
import { makeSocket } from "./hostile-folder";
import { createChat } from "./testing";

/**
 * The fuzz suite's log folders (`fuzz-folder.ts`): random trees of group and
 * chat folders whose names may not decode, holding FIFOs, sockets, links
 * (inside, outside, to /dev/null, looping, dangling) and files where folders
 * belong. `outside` is a folder beside the log folder full of a canary.
 */

/** What an entry is on disk. */
export type EntryKind =
  | "folder"
  | "file"
  | "fifo"
  | "socket"
  | "link-outside"
  | "link-devnull"
  | "link-loop"
  | "link-dangling"
  | "link-inside";

/** Kinds that must always be reported as a problem wherever they are (never read). */
export const BAD_KINDS: ReadonlySet<EntryKind> = new Set([
  "fifo",
  "socket",
  "link-outside",
  "link-devnull",
  "link-loop",
  "link-dangling",
]);

/** One chat folder's file: a name the reader knows (or not) and what it is. */
export interface FileSpec {
  name: string;
  kind: EntryKind;
}

/** A chat entry in a group: its name, what it is, and (a real folder) whether it holds a good log and which files. */
export interface ChatSpec {
  name: string;
  kind: EntryKind;
  goodLog: boolean;
  files: FileSpec[];
}

/** A group entry of the log folder. */
export interface GroupSpec {
  name: string;
  kind: EntryKind;
  chats: ChatSpec[];
}

const ODD_NAMES = ["%ZZ", "%C3", "%2f", "%FF%FE", "a%", "..%2E", "%2E%2E", "--%C3--", "--%ZZ--", "--", "-----", "x y"];
const KINDS: EntryKind[] = ["folder", "file", "fifo", "socket", "link-outside", "link-devnull", "link-loop"];
/** The names a chat folder's files have: a hostile entry under one of these must be reported. */
export const FILE_NAMES = [
  "session.jsonl",
  "session.jsonl.zstd",
  "session.v4.jsonl.zstd",
  "session.cache.json",
  "session.lock",
];

/** A name for a file system entry: short, no separator or NUL, not `.`/`..`. */
const rawName = fc
  .string({ minLength: 1, maxLength: 12, unit: "grapheme" })
  .filter((s) => !/[/\0]/.test(s) && s !== "." && s !== ".." && Buffer.byteLength(s) < 120);
const chatName = fc.oneof(
  fc.string({ minLength: 1, maxLength: 10, unit: "grapheme" }).map((id) => encodeName(id)),
  fc.constantFrom(...ODD_NAMES),
  rawName,
);
const groupNameArb = fc.oneof(
  fc.string({ minLength: 1, maxLength: 10, unit: "grapheme" }).map((cwd) => groupName(cwd)),
  fc.constant(NO_CWD_GROUP),
  fc.constantFrom(...ODD_NAMES),
  rawName,
);
const kind = fc.oneof({ weight: 5, arbitrary: fc.constant<EntryKind>("folder") }, fc.constantFrom(...KINDS), {
  weight: 1,
  arbitrary: fc.constantFrom<EntryKind>("link-dangling", "link-inside"),
});
const file = fc.record({ name: fc.constantFrom(...FILE_NAMES, "notes.txt"), kind });
const chat = fc.record({
  name: chatName,
  kind,
  goodLog: fc.boolean(),
  files: fc.uniqueArray(file, { maxLength: 3, selector: (f) => f.name }),
});

/** A log folder tree: up to three groups of up to three chats. */
export const treeArb = fc.uniqueArray(
  fc.record({ name: groupNameArb, kind, chats: fc.uniqueArray(chat, { maxLength: 3, selector: (c) => c.name }) }),
  { minLength: 1, maxLength: 3, selector: (g) => g.name },
);

/** Every entry planted, with its path and kind, and the FIFOs (for the watchdog). */
export interface Planted {
  entries: { path: string; kind: EntryKind; level: "group" | "chat" | "file" }[];
  fifos: string[];
}

/** Plants `kind` at `path`; a "folder" is made by the caller. */
async function plant(path: string, kind: EntryKind, outside: string, out: Planted): Promise<void> {
  if (kind === "file") writeFileSync(path, "not what belongs here\n");
  else if (kind === "fifo") out.fifos.push(path);
  else if (kind === "socket") await makeSocket(path);
  else if (kind === "link-outside") symlinkSync(outside, path);
  else if (kind === "link-devnull") symlinkSync("/dev/null", path);
  else if (kind === "link-loop") symlinkSync(path, path);
  else if (kind === "link-dangling") symlinkSync(`${path}.gone`, path);
  else if (kind === "link-inside") symlinkSync(".", path);
}

/**
 * Builds `tree` under `logs`. A chat folder with `goodLog` gets a log written
 * by the project's writer (then its files are planted over it, which may
 * replace the log or checkpoint by something hostile).
 */
export async function buildTree(logs: string, outside: string, tree: GroupSpec[], goodLog: Buffer): Promise<Planted> {
  const out: Planted = { entries: [], fifos: [] };
  for (const g of tree) {
    const gdir = join(logs, g.name);
    out.entries.push({ path: gdir, kind: g.kind, level: "group" });
    if (g.kind !== "folder") {
      await plant(gdir, g.kind, join(outside, "group"), out);
      continue;
    }
    mkdirSync(gdir);
    for (const c of g.chats) {
      const cdir = join(gdir, c.name);
      out.entries.push({ path: cdir, kind: c.kind, level: "chat" });
      if (c.kind !== "folder") {
        await plant(cdir, c.kind, join(outside, "group", "chat"), out);
        continue;
      }
      mkdirSync(cdir);
      if (c.goodLog) writeFileSync(join(cdir, "session.jsonl.zstd"), goodLog);
      for (const f of c.files) {
        const path = join(cdir, f.name);
        out.entries.push({ path, kind: f.kind, level: "file" });
        rmSync(path, { recursive: true, force: true });
        if (f.kind === "folder") mkdirSync(path);
        else await plant(path, f.kind, join(outside, "passwd"), out);
      }
    }
  }
  if (out.fifos.length) execFileSync("mkfifo", out.fifos);
  return out;
}

/**
 * Writes the outside folder (the canary in a file, a group and a chat folder
 * whose log decodes) and returns a good log (format 1: no header, so any chat
 * folder may hold it) written once by the project's writer.
 */
export async function prepareOutside(root: string, canary: string): Promise<{ goodLog: Buffer }> {
  const outside = join(root, "outside");
  mkdirSync(join(outside, "group", "chat"), { recursive: true });
  writeFileSync(join(outside, "passwd"), `root:x:0:0:${canary}:/root:/bin/sh\n`);
  const created = "2026-11-29T18:24:08.123Z";
  const leak = createChat(join(root, "seed"), { id: canary, cwd: null, created });
  await leak.appendTurn({ user: canary, assistant: canary, ts: created });
  await leak.close();
  cpSync(leak.dir, join(outside, "group", "chat"), { recursive: true });
  const good = createChat(join(root, "seed"), { id: "good", cwd: null, created }, { format: 1 });
  await good.appendTurn({ user: "hello", assistant: "hi", ts: created });
  await good.close();
  return { goodLog: readFileSync(join(good.dir, "session.jsonl.zstd")) };
}
