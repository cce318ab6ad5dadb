/**
 * `lib/chats`: DataMind Oda's chat logs, read faithfully and fast
 * (`docs/file-contract.md`, Chat logs; the seed "Session files on your computer").
 * The reader never opens a file for writing; the one write the dashboard may
 * make in a chat folder is `freeStaleLock`, after a person confirms it. It
 * never blocks on a FIFO (every open is `openRegularSync`) and never reads
 * outside the log folder: links are followed only while they stay inside
 * (`links.ts`); the rest are problems of kind `link` or `special`.
 *
 * Listing
 * - `summarizeChat(location, {compress})`: one chat's summary (the search index
 *   re-reads only the chats whose files changed).
 * - `listChats(logDir, {compress?, verify?, batchSize?, onProgress?})`: an async
 *   iterable of `ChatBatch` {chats: ChatSummary[], problems, done, total};
 *   `listAllChats` collects it.
 *
 * One chat
 * - `outlineChat(logDir, id, {compress?})` → location, generations and lock, reading no log.
 * - `readChat(logDir, id, {compress?})` → `ChatView` (summary read whole, header,
 *   generations, lock, checkpoint state, tail, line count).
 * - `readLines(logDir, id, {from, count, generation?})` → `{lines, total, tail, error}`;
 *   `from` ≤ 0 counts from the end. A sparse index (per file, in memory) is
 *   reused and extended when the log grows: call again to follow new lines.
 * - `indexChat`, `findInChat(logDir, id, query, {from})`, `nextErrorLine(logDir, id, {from})`.
 * - `openLogStream(path)`: decompressed bytes for downloads; `openLineStream` one line alone;
 *   `openChatDownload(logDir, id, {form, generation?})` picks and opens a chat's log for one.
 * - `freeStaleLock(logDir, id, {expectPid})`.
 *
 * Limits (`limits.ts`): every read is bounded by the log limits in force
 * (`setLogLimits`, from `<admin state>/settings.json` `logs` via
 * `readLogLimits`): a decoded-size cap, a 1000× ratio guard against zstd
 * bombs, and a line length past which a line is kept as its head with its
 * length. A stop is a problem sentence giving the file and decoded offsets.
 * A server runs these reads on its decode worker (`worker-api.ts`).
 *
 * Writing (demo data, tests): `createChat`, `openChat`, `ChatWriter`
 * (`appendTurn`, `appendEvents`, `writeCheckpoint`, `close`), `upgradeToFormat4`,
 * and the crash helpers `appendCutSave`, `appendUnfinishedLine`, `leaveDeadLock`.
 */

import "server-only";

export {
  ACTIVITY_BUCKETS,
  type ActivityBucket,
  ActivityBucketer,
  type ActivityItem,
  type ActivityStrip,
  lineActivity,
  lineTime,
} from "./activity";
export {
  type ChatSummary,
  formSentence,
  type Generation,
  listGenerations,
  lockProblem,
  type SummarizeOptions,
  summarizeChat,
} from "./chat";
export type { CacheState, CacheVerdict, Checkpoint } from "./checkpoint";
export { hashLogTail, judgeCheckpoint, readCheckpoint } from "./checkpoint";
export type { ChatDetails, ChatIdentity, SessionHeader } from "./details";
export {
  FILTER_CONTEXTS,
  type FilteredLine,
  type FilterPage,
  filterLines,
  type LineFilter,
  lineMatches,
  toolCounts,
} from "./filter";
export { type ChatLocation, locateChat, locateCopies, walkLogFolder } from "./folder";
export { countFormRefusals, type FormRefusals } from "./form-count";
export {
  DEFAULT_LOG_LIMITS,
  type LogLimits,
  type LogLimitsSetting,
  logLimits,
  readLogLimits,
  setLogLimits,
} from "./limits";
export { cachedIndex, indexLog, type LinesResult, type LogIndex, readLogLines, type TailReport } from "./line-index";
export { openLineStream, streamLineBytes } from "./line-stream";
export type { LogLine } from "./lines";
export { type ChatBatch, type ListChatsOptions, listAllChats, listChats } from "./list";
export { type SeekPoint, streamLog } from "./log-stream";
export { decodeName, encodeName, groupName, logFileName, NO_CWD_GROUP, parseGroupName, parseLogName } from "./names";
export { type ChatOutline, outlineChat } from "./outline";
export {
  type Problem,
  type ProblemKind,
  problemAt,
  rawLogNote,
  splitRawLog,
  withPaths,
  withRawLog,
} from "./problem";
export {
  type ChatDownload,
  type ChatView,
  findInChat,
  freeStaleLock,
  indexChat,
  isProblemLine,
  isUserLine,
  type LineSeek,
  nextErrorLine,
  openChatDownload,
  openLogStream,
  type ReadOptions,
  readChat,
  readChatLock,
  readLines,
  seekLine,
} from "./read";
export { readCompressSetting } from "./settings";
export { type ShownChat, showChat } from "./show";
