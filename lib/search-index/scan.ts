import { readdirSync, type Stats, statSync } from "node:fs";
import { sep } from "node:path";
import type { ChatLocation, Problem } from "../chats";
import { scanLogFolder } from "../chats/folder";
import { RACY_MS } from "../chats/stat-identity";
import type { Db } from "./db";

/**
 * What changed in the log folder since the index was built, found from names,
 * sizes and mtimes only (no log is opened): the cheap first step of a refresh
 * and the chat list's freshness check.
 */

/**
 * A chat folder as seen now: where it is and the fingerprint of its files
 * (`null` for a chat the index does not hold yet: nothing to compare it with,
 * so its reader takes it just before reading it, off the scanning thread).
 */
export interface SeenChat {
  loc: ChatLocation;
  fingerprint: string | null;
  /** When the fingerprint was taken (ms since the epoch, taken just before it): the racy rule's moment. */
  verifiedMs?: number;
  /** The newest modification time among the fingerprint's folder and files (ms since the epoch). */
  newestMs?: number;
}

/** What the index holds about a chat, enough to decide what to re-read. */
export interface IndexedChat {
  cid: number;
  id: string;
  folder: string;
  fingerprint: string;
  log_name: string | null;
  log_size: number | null;
  log_mtime: number | null;
  log_ino: number | null;
  text_lines: number;
  seek_line: number | null;
  seek_dec: number | null;
  seek_comp: number | null;
  seek_sha: string | null;
  bad_lines: number;
  indexed_at: string;
}

/** A chat new or changed since it was indexed (with the index's row when there is one). */
export interface ChangedChat {
  seen: SeenChat;
  row: ScannedRow | null;
}

/**
 * The changed chats, each made when asked for: a chat new to the index is kept as its place in the folder's
 * walk (`scanLogFolder`), not as a location, so a first build of a million chats does not hold a million
 * locations (about 0.4 KB each: 672 MiB at its peak) from its scan to its end.
 */
export interface ChangedChats {
  length: number;
  at(i: number): ChangedChat;
}

/** The changes between the folder and the index. */
export interface FolderChanges {
  changed: ChangedChats;
  /** Of `changed`, the chats new to the index. */
  added: number;
  /** Bytes of the changed chats' files known from their fingerprints (a new chat's is taken when it is read). */
  knownBytes: number;
  /** Index rows of chats that are gone. */
  gone: ScannedRow[];
  /** Chats in the folder. */
  total: number;
  /** Folder-level problems (names that do not decode, chats stored twice). */
  problems: Problem[];
}

/**
 * The fingerprint of a chat folder: the folder's mtime, then `name:size:mtime`
 * of each file, sorted. Any change to a log, checkpoint or lock changes it.
 * When the folder's mtime is the one `known` starts with, no file was added,
 * removed or renamed in it, so only the known files are stat'ed again (no
 * directory read): the refresh of an unchanged folder costs a few stats per chat.
 * `list` reads the folder instead of `readdirSync` (the reader keeps what it
 * read for the chat's summary); it is called after the folder's stat, so a
 * file added meanwhile changes the folder's mtime too. `stats`, when given,
 * receives each file's stat by name (the reader's stat of the log before reading it);
 * a stat it holds already when the file is reached (one `list` put there: the
 * `fstat` of the log the reader opened) is used instead of a second stat.
 */
export function fingerprintChat(
  dir: string,
  known?: string,
  list?: () => string[],
  stats?: Map<string, Stats>,
  watchChange = known?.startsWith(WATCHED) ?? false,
  newest?: { mtimeMs: number },
): string {
  let dirStat: Stats;
  try {
    dirStat = statSync(dir);
  } catch {
    return "unreadable";
  }
  const seen = (st: Stats) => {
    if (newest && st.mtimeMs > newest.mtimeMs) newest.mtimeMs = st.mtimeMs;
  };
  seen(dirStat);
  // A chat with a file the system would not give is watched by change times too: a chmod changes no mtime.
  const times = (st: Stats) => (watchChange ? `${st.mtimeMs}:${st.ctimeMs}` : `${st.mtimeMs}`);
  const head = `${watchChange ? WATCHED : ""}${times(dirStat)}|`;
  let names: string[];
  if (known?.startsWith(head) && !watchChange) {
    names = [];
    for (const part of known.slice(head.length).split("|")) {
      if (part) names.push(part.slice(0, part.lastIndexOf(":", part.lastIndexOf(":") - 1)));
    }
  } else {
    try {
      names = (list ? list() : readdirSync(dir)).filter((n) => !n.includes("|")).sort();
    } catch {
      return `${head}unreadable`;
    }
  }
  const parts: string[] = [];
  for (const name of names) {
    // A file the caller opened already (the reader's current log) has its open's stat: not stat'ed again.
    let st: Stats | undefined = stats?.get(name);
    try {
      st ??= statSync(`${dir}${sep}${name}`, { throwIfNoEntry: false });
    } catch {
      // A link that loops or cannot be followed: the reader reports it; here it only has to not stop the scan.
      parts.push(`${name}:link:0`);
      continue;
    }
    // Removed between the listing and the stat (a checkpoint's temporary file): not part of the chat.
    if (!st) continue;
    parts.push(`${name}:${st.size}:${times(st)}`);
    stats?.set(name, st);
    seen(st);
  }
  return head + parts.join("|");
}

/**
 * The mark that starts the fingerprint of a chat indexed with a file or folder the system would not give:
 * its change times are compared too, so giving access (which changes no mtime) has it read again.
 */
export const WATCHED = "!";

/**
 * The mark that starts the stored fingerprint of a chat whose folder or a file of it was modified within
 * `RACY_MS` of its fingerprint (the listing's racy rule, `remembered.ts`): no fingerprint taken later equals
 * it, so the next scan verifies the chat again, and its reader does not trust the log's size and time
 * (`chat-read.ts`): a rewrite of the same size in the same tick of the file system's clock is caught.
 */
export const RACY = "?";

/** The fingerprint to store: marked `RACY` when a time in it is within `RACY_MS` of `verifiedMs` (or after it). */
export function storedFingerprint(fingerprint: string, newestMtimeMs: number, verifiedMs: number): string {
  return newestMtimeMs + RACY_MS >= verifiedMs ? `${RACY}${fingerprint}` : fingerprint;
}

/** What the scan needs of each indexed chat. */
export interface ScannedRow {
  cid: number;
  id: string;
  folder: string;
  fingerprint: string;
}

/** Every chat the index holds, keyed by id (only what the scan compares). */
export function readIndexedChats(db: Db): Map<string, ScannedRow> {
  const rows = db.prepare("SELECT cid, id, folder, fingerprint FROM chats").raw().iterate() as IterableIterator<
    [number, string, string, string]
  >;
  const map = new Map<string, ScannedRow>();
  for (const [cid, id, folder, fingerprint] of rows) map.set(id, { cid, id, folder, fingerprint });
  return map;
}

/** The whole row of an indexed chat, for re-reading it. */
export function readIndexedChat(db: Db, cid: number): IndexedChat | null {
  return (
    (db
      .prepare(
        "SELECT cid, id, folder, fingerprint, log_name, log_size, log_mtime, log_ino, text_lines, seek_line, seek_dec, seek_comp, seek_sha, bad_lines, indexed_at FROM chats WHERE cid = ?",
      )
      .get(cid) as IndexedChat | undefined) ?? null
  );
}

const tick = () => new Promise<void>((done) => setImmediate(done));

/** How many chats are compared between two looks at `cancelled` (an `Atomics.load`, a few ns). */
const CHATS_A_LOOK = 64;

/** The sentence of a folder check stopped because nobody waits for it any more (its callers ignore it). */
export const CHECK_CANCELLED = "The folder check was stopped: nobody waits for it any more.";

/** The error a cancelled comparison ends with: named `AbortError`, as an aborted fetch's is. */
export function checkCancelled(): Error {
  return Object.assign(new Error(CHECK_CANCELLED), { name: "AbortError" });
}

/**
 * Compares the log folder with the index. The stats are done in slices,
 * yielding to the event loop between them, so a server keeps answering while
 * a large folder is compared. `cancelled` is looked at before each group's walk and every few chats (the server's decode worker passes a
 * flag its caller sets when nobody waits for the check any more): when it says so, the comparison ends with
 * `checkCancelled()`'s error.
 */
export async function scanChanges(
  db: Db,
  logDir: string,
  slice = 500,
  cancelled: () => boolean = () => false,
): Promise<FolderChanges> {
  // The walk too looks at `cancelled`, once a group: at 100,000 chats it is more than a second of the check.
  const scan = scanLogFolder(logDir, () => {
    if (cancelled()) throw checkCancelled();
  });
  const indexed = readIndexedChats(db);
  // A new chat as its place in the walk; a changed one as what its scan found.
  const changed: (number | ChangedChat)[] = [];
  let added = 0;
  let knownBytes = 0;
  for (let from = 0; from < scan.total; from += slice) {
    if (from) await tick();
    const locs = scan.chatsAt(from, from + slice);
    for (let k = 0; k < locs.length; k++) {
      if (k % CHATS_A_LOOK === 0 && cancelled()) throw checkCancelled();
      compare(locs[k] as ChatLocation, from + k);
    }
  }
  const at = (i: number): ChangedChat => {
    const c = changed[i] as number | ChangedChat;
    if (typeof c !== "number") return c;
    return { seen: { loc: scan.chatsAt(c, c + 1)[0] as ChatLocation, fingerprint: null }, row: null };
  };
  return {
    changed: { length: changed.length, at },
    added,
    knownBytes,
    gone: [...indexed.values()],
    total: scan.total,
    problems: scan.problems,
  };

  function compare(loc: ChatLocation, place: number): void {
    const row = indexed.get(loc.id) ?? null;
    indexed.delete(loc.id);
    if (!row) {
      changed.push(place);
      added++;
      return;
    }
    const verifiedMs = Date.now();
    const newest = { mtimeMs: 0 };
    const known = row.fingerprint.startsWith(RACY) ? row.fingerprint.slice(RACY.length) : row.fingerprint;
    const fingerprint = fingerprintChat(loc.dir, known, undefined, undefined, undefined, newest);
    // A racy chat's stored fingerprint is marked, so it is never equal: it is verified again.
    if (row.fingerprint !== fingerprint || row.folder !== loc.folder) {
      changed.push({ seen: { loc, fingerprint, verifiedMs, newestMs: newest.mtimeMs }, row });
      // name:size:mtime[:ctime] after the folder's part; names hold no ":" only by habit.
      for (const part of fingerprint.split("|").slice(1)) knownBytes += Number(part.split(":")[1]) || 0;
    }
  }
}
