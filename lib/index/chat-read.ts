import { type Stats, statSync } from "node:fs";
import { basename } from "node:path";
import type { Generation } from "../sessions";
import { type ChatFolderFiles, readChatFolder } from "../sessions/chat";
import { DetailsRebuild } from "../sessions/details";
import { describeChat, isSameLog, resumePoint } from "./chat-describe";
import { LogReader } from "./log-reader";
import type { ReadMessage, ReadTask } from "./read-messages";
import { fingerprintChat, type IndexedChat } from "./scan";
import type { TextCodec } from "./text-codec";

/**
 * Reading one changed chat for the index, without the index: describe it (its
 * summary and current log), then, unless only its summary changed, read its
 * log from the start or from where the index stopped and hand over its
 * entries in batches, each with their text already compressed
 * (`log-reader.ts`). A log without a usable checkpoint is read whole to
 * describe the chat: that same pass extracts its text, so a new or rewritten
 * chat's log is decoded once. It runs on a
 * reader thread (`read-pool.ts`) while the refresh's thread only writes, so
 * everything here is plain data that crosses threads.
 */

/** True when the indexed log is this same file (its text is then kept, or only what was appended is read). */
function sameFile(row: IndexedChat | null, current: Generation, st: Stats): boolean {
  return !!row && row.log_name === current.name && row.log_ino === st.ino;
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
  // Taken before reading: a file changing meanwhile makes the next refresh read the chat again. The folder read
  // for it is the one the summary uses (one directory read per new chat, not two).
  let files: ChatFolderFiles | undefined;
  const { loc } = given.seen;
  const list = () => {
    files = readChatFolder(loc);
    return files.names;
  };
  // The fingerprint's stats, taken before anything is read: the log's is the one its reading starts from.
  const stats = new Map<string, Stats>();
  const fingerprint = given.seen.fingerprint ?? fingerprintChat(loc.dir, undefined, list, stats);
  const task = { ...given, seen: { ...given.seen, fingerprint } };
  let early: { reader: LogReader; st: Stats; path: string } | null = null;
  const rebuild = async (current: Generation) => {
    // Stat before reading, as a fingerprint: a log growing meanwhile is read again by the next refresh.
    const st = stats.get(current.name) ?? statSync(current.path);
    const reader = new LogReader(task, undefined, post, codec, new DetailsRebuild(), !sameFile(task.row, current, st));
    await reader.read(current);
    early = { reader, st, path: current.path };
    return reader.rebuilt(current.path);
  };
  const stat = (path: string) => {
    const known = early as { st: Stats; path: string } | null;
    return known?.path === path ? known.st : (stats.get(basename(path)) ?? statSync(path));
  };
  const d = await describeChat(task, { rebuild, files, stat });
  const unreadable = d.summary.problems.filter((p) => p.kind === "system").map((p) => p.message);
  // Kept with its change times: access given later (a chmod changes no mtime) has the next refresh read it again.
  if (unreadable.length) task.seen.fingerprint = fingerprintChat(loc.dir, undefined, undefined, undefined, true);
  if (isSameLog(task.row, d)) {
    await post({
      kind: "summary",
      fields: { ...d.base, fingerprint: task.seen.fingerprint },
      summaryProblems: d.summary.problems.length,
      tailUnknown: d.summary.tail === null,
    });
    return unreadable;
  }
  const from = resumePoint(task.row, d);
  const pass = early as { reader: LogReader; st: Stats; path: string } | null;
  let reader: LogReader;
  if (!from && pass?.reader.hasText(d.current)) {
    // Its stat (`d.st`) is the one taken before that pass read the log.
    reader = pass.reader;
    reader.d = d;
  } else {
    reader = new LogReader(task, from, post, codec);
    reader.d = d;
    if (d.current) await reader.read(d.current);
  }
  await reader.flush(true);
  return unreadable;
}
