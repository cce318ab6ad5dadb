import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeName, groupName, NO_CWD_GROUP } from "../../lib/chats/names";
import { createChat } from "./testing";

/**
 * A log folder of hostile entries for tests (unit, CLI, e2e, fuzz): FIFOs,
 * a socket and links named like logs, checkpoints, locks and chat folders,
 * beside ordinary chats. Everything outside the log folder holds a canary, a
 * unique string that must never show in anything the reader returns.
 */

/** Makes a FIFO (named pipe) at `path` (the `mkfifo` command: Node has no call for it). */
export function makeFifo(path: string): void {
  execFileSync("mkfifo", [path]);
}

/**
 * Leaves a UNIX socket file at `path`. A listening server removes its socket
 * when it closes, so it listens under another name that is renamed into place
 * first: the file stays, a socket nobody listens on. That name is short and in
 * the temporary folder (a socket's path is limited to about 100 bytes), so
 * `path` must be on the temporary folder's file system.
 */
export async function makeSocket(path: string): Promise<void> {
  const temp = join(tmpdir(), `oda-${randomUUID().slice(0, 8)}.sock`);
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(temp, resolve);
  });
  renameSync(temp, path);
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The hostile folder: where things are, and the canary that must never be read. */
export interface HostileFolder {
  logs: string;
  outside: string;
  canary: string;
  /** The chat folder (as stored) of each hostile chat, by id. */
  dirs: Record<string, string>;
}

const GROUP = "/home/ana";
const CREATED = "2026-11-29T18:24:08.123Z";

async function goodChat(logs: string, id: string, cwd: string | null = GROUP): Promise<string> {
  const w = createChat(logs, { id, cwd, created: CREATED }, { compress: true });
  await w.appendTurn({ user: `Question of ${id}`, assistant: `Answer of ${id}`, ts: CREATED });
  await w.close();
  return w.dir;
}

/** An empty chat folder in the hostile group, for files planted by hand. */
function bareChat(logs: string, id: string): string {
  const dir = join(logs, groupName(GROUP), encodeName(id));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Builds the hostile folder under `root` (`logs/` and `outside/`). Chats:
 * `c-good` (ordinary); `c-fifo` and `c-socket` (the log is a FIFO, a socket);
 * `c-cache-fifo`, `c-lock-fifo` (good log, FIFO checkpoint / lock);
 * `c-passwd` (`session.jsonl` links to a file outside); `c-devnull` (the log
 * links to /dev/null); `c-loop` (the log is a link loop); `c-inside` (the log
 * links to a file beside it: followed); `c-outside-folder` (the chat folder
 * links outside); `c-loop-folder` (the chat folder links to itself). Also a
 * group linked outside, a FIFO where a chat folder belongs, and a file where a group belongs.
 */
export async function makeHostileFolder(root: string): Promise<HostileFolder> {
  const logs = join(root, "logs");
  const outside = join(root, "outside");
  mkdirSync(logs, { recursive: true });
  mkdirSync(outside, { recursive: true });
  const canary = `CANARY-${randomUUID()}`;
  writeFileSync(join(outside, "passwd"), `root:x:0:0:${canary}:/root:/bin/sh\n`);
  // Outside, a whole chat folder and group whose logs would decode fine: only the links must keep them out.
  await goodChat(outside, canary);
  const dirs: Record<string, string> = {};
  dirs["c-good"] = await goodChat(logs, "c-good");
  dirs["c-fifo"] = bareChat(logs, "c-fifo");
  makeFifo(join(dirs["c-fifo"], "session.v4.jsonl.zstd"));
  dirs["c-socket"] = bareChat(logs, "c-socket");
  await makeSocket(join(dirs["c-socket"], "session.v4.jsonl.zstd"));
  dirs["c-cache-fifo"] = await goodChat(logs, "c-cache-fifo");
  rmSync(join(dirs["c-cache-fifo"], "session.cache.json"));
  makeFifo(join(dirs["c-cache-fifo"], "session.cache.json"));
  dirs["c-lock-fifo"] = await goodChat(logs, "c-lock-fifo");
  makeFifo(join(dirs["c-lock-fifo"], "session.lock"));
  dirs["c-passwd"] = bareChat(logs, "c-passwd");
  symlinkSync(join(outside, "passwd"), join(dirs["c-passwd"], "session.jsonl"));
  dirs["c-devnull"] = bareChat(logs, "c-devnull");
  symlinkSync("/dev/null", join(dirs["c-devnull"], "session.v4.jsonl.zstd"));
  dirs["c-loop"] = bareChat(logs, "c-loop");
  symlinkSync("loop-b", join(dirs["c-loop"], "session.v4.jsonl.zstd"));
  symlinkSync("session.v4.jsonl.zstd", join(dirs["c-loop"], "loop-b"));
  dirs["c-inside"] = await goodChat(logs, "c-inside");
  renameSync(join(dirs["c-inside"], "session.v4.jsonl.zstd"), join(dirs["c-inside"], "kept.data"));
  symlinkSync("kept.data", join(dirs["c-inside"], "session.v4.jsonl.zstd"));
  const groupDir = join(logs, groupName(GROUP));
  dirs["c-outside-folder"] = join(groupDir, "c-outside-folder");
  symlinkSync(join(outside, groupName(GROUP), encodeName(canary)), dirs["c-outside-folder"]);
  dirs["c-loop-folder"] = join(groupDir, "c-loop-folder");
  symlinkSync(dirs["c-loop-folder"], dirs["c-loop-folder"]);
  symlinkSync(join(outside, groupName(GROUP)), join(logs, groupName("/elsewhere")));
  mkdirSync(join(logs, NO_CWD_GROUP), { recursive: true });
  makeFifo(join(logs, NO_CWD_GROUP, "c-fifo-folder"));
  writeFileSync(join(logs, "notes.txt"), "a file where a group belongs\n");
  return { logs, outside, canary, dirs };
}
