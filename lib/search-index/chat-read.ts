import { closeSync, type Stats, statSync } from "node:fs";
import { basename } from "node:path";
import type { Generation } from "../chats";
import { type ChatFolderFiles, nameGenerations, readChatFolder } from "../chats/chat";
import { DetailsRebuild } from "../chats/details";
import { openRegularSync } from "../fs/open-regular";
import { describeChat, isSameLog, resumePoint } from "./chat-describe";
import { LogReader, type OpenedLog } from "./log-reader";
import type { ReadMessage, ReadTask } from "./read-messages";
import { fingerprintChat, type IndexedChat, RACY, storedFingerprint } from "./scan";
import type { TextCodec } from "./text-codec";

/**
 * Reading one changed chat for the index, without the index: describe it (its
 * summary and current log), then, unless only its summary changed, read its
 * log from the start or from where the index stopped and hand over its
 * entries in batches, each with their text already compressed
 * (`log-reader.ts`). A log without a usable checkpoint is read whole to
 * describe the chat: that same pass extracts its text, so a new or rewritten
 * chat's log is decoded once. The current log is opened once: its head (read
 * for the summary), the whole log and the tail hashes all go through that
 * descriptor, its stat is the open's, and the first frame decoded for the
 * header is not decoded again (a short log, one frame, is decoded once). It runs on a
 * reader thread (`read-pool.ts`) while the refresh's thread only writes, so
 * everything here is plain data that crosses threads.
 */

/** True when the indexed log is this same file (its text is then kept, or only what was appended is read). */
function sameFile(row: IndexedChat | null, current: Generation, st: Stats): boolean {
  return !!row && row.log_name === current.name && row.log_ino === st.ino;
}

/**
 * Opens the folder's current log (as `summarizeChat` would judge it current): `null` when there is none or it
 * cannot be opened as a regular file; `summarizeChat` then opens it itself and words what it finds.
 */
function openCurrent(dir: string, files: ChatFolderFiles, compress: boolean): (OpenedLog & { st: Stats }) | null {
  const current = nameGenerations(dir, files, compress).find((g) => g.current);
  if (!current || current.blocked) return null;
  try {
    const { fd, stat } = openRegularSync(current.path);
    return { path: current.path, open: { fd, size: stat.size, ino: stat.ino }, head: null, st: stat };
  } catch {
    return null;
  }
}

/**
 * Reads one chat, handing each message to `post` (awaited: the writer's pace
 * bounds what is held); its text is compressed with `codec`'s dictionary once there is one.
 * Returns the sentences of its files (or its folder) the system would not give: the chat is indexed without
 * them, and the refresh counts them as left out.
 */
export async function readChat(
  given: ReadTask,
  post: (m: ReadMessage) => Promise<void>,
  codec: TextCodec,
): Promise<string[]> {
  const { loc } = given.seen;
  // Closed once the chat is read, whatever happened.
  const held: { log: (OpenedLog & { st: Stats }) | null } = { log: null };
  try {
    return await readOpened();
  } finally {
    if (held.log) closeSync(held.log.open.fd);
  }

  async function readOpened(): Promise<string[]> {
    // The fingerprint's stats, taken before anything is read: the log's is its open's, the one its reading starts from.
    const stats = new Map<string, Stats>();
    let files: ChatFolderFiles | undefined;
    const list = () => {
      // The folder read for it is the one the summary uses (one directory read per new chat, not two).
      files = readChatFolder(loc);
      held.log = openCurrent(loc.dir, files, given.compress);
      if (held.log) stats.set(basename(held.log.path), held.log.st);
      return files.names;
    };
    // Taken before reading: a file changing meanwhile makes the next refresh read the chat again. A chat the index
    // holds was fingerprinted by the scan; its folder is read (and its log opened) here all the same.
    // The racy rule's moment: just before the fingerprint (the scan's, or this one).
    const verifiedMs = given.seen.verifiedMs ?? Date.now();
    const newest = { mtimeMs: given.seen.newestMs ?? 0 };
    const fingerprint = given.seen.fingerprint ?? fingerprintChat(loc.dir, undefined, list, stats, false, newest);
    if (!files) {
      try {
        list();
      } catch {
        // A folder the system would not give: `summarizeChat` reads it itself and words what it found.
      }
    }
    const opened = held.log;
    // Stored marked when racy: the next scan verifies the chat again.
    const task = {
      ...given,
      seen: { ...given.seen, fingerprint: storedFingerprint(fingerprint, newest.mtimeMs, verifiedMs) },
    };
    // Indexed while racy: its log's size and time do not prove it unchanged (a same-size rewrite in the same tick).
    const racyRow = !!task.row?.fingerprint.startsWith(RACY);
    let early: { reader: LogReader; st: Stats; path: string } | null = null;
    const statOf = (path: string) =>
      opened?.path === path ? opened.st : (stats.get(basename(path)) ?? statSync(path));
    const rebuild = async (current: Generation) => {
      // Stat before reading, as a fingerprint: a log growing meanwhile is read again by the next refresh.
      const st = statOf(current.path);
      const reader = new LogReader(
        task,
        undefined,
        post,
        codec,
        new DetailsRebuild(),
        !sameFile(task.row, current, st),
        opened,
      );
      await reader.read(current);
      early = { reader, st, path: current.path };
      return reader.rebuilt(current.path);
    };
    const stat = (path: string) => {
      const known = early as { st: Stats; path: string } | null;
      return known?.path === path ? known.st : statOf(path);
    };
    const d = await describeChat(task, {
      rebuild,
      files,
      stat,
      known: stats,
      log: opened?.open,
      onHead: (head) => {
        if (opened) opened.head = head;
      },
    });
    const unreadable = d.summary.problems.filter((p) => p.kind === "system").map((p) => p.message);
    // Kept with its change times: access given later (a chmod changes no mtime) has the next refresh read it again.
    if (unreadable.length) {
      const watched = { mtimeMs: 0 };
      const now = Date.now();
      task.seen.fingerprint = storedFingerprint(
        fingerprintChat(loc.dir, undefined, undefined, undefined, true, watched),
        watched.mtimeMs,
        now,
      );
    }
    if (!racyRow && isSameLog(task.row, d)) {
      await post({
        kind: "summary",
        fields: { ...d.base, fingerprint: task.seen.fingerprint },
        summaryProblems: d.summary.problems.length,
        tailUnknown: d.summary.tail === null,
      });
      return unreadable;
    }
    const hashTail = opened?.head && opened.path === d.current?.path ? opened.head.hashTail : undefined;
    const from = resumePoint(task.row, d, hashTail);
    const pass = early as { reader: LogReader; st: Stats; path: string } | null;
    let reader: LogReader;
    if (!from && pass?.reader.hasText(d.current)) {
      // Its stat (`d.st`) is the one taken before that pass read the log.
      reader = pass.reader;
      reader.d = d;
    } else {
      reader = new LogReader(task, from, post, codec, null, true, opened);
      reader.d = d;
      if (d.current) await reader.read(d.current);
    }
    await reader.flush(true);
    return unreadable;
  }
}
