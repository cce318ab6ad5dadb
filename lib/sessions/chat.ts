import { closeSync, statSync } from "node:fs";
import { sep } from "node:path";
import { isOdaError } from "../errors";
import { type LockStatus, readLockStatus } from "../fs/lock";
import { openRegularSync } from "../fs/open-regular";
import { isSystemError, systemErrorPath, systemErrorSentence } from "../fs/system-error";
import { type CacheState, type Checkpoint, judgeCheckpoint, readCheckpoint } from "./checkpoint";
import { asHeader, type ChatDetails, type ChatIdentity, type RebuiltLog, rebuildDetails } from "./details";
import type { ChatLocation } from "./folder";
import { decodeLogHead, type HeadBytes, type LogHead, readHeadBytes } from "./head";
import { logLimits } from "./limits";
import type { LongLine, TailReport } from "./line-index";
import { type BlockedEntry, screenChatFolder } from "./links";
import type { OpenLog } from "./log-stream";
import { CACHE_FILE, LOCK_FILE, type LogName, parseLogName } from "./names";
import { type Problem, problemAt, withRawLog } from "./problem";
import { identityNow, type VerifiedStamps } from "./stat-identity";
import { FileWindow, readRange } from "./zstd/file-window";
import { walkFrame } from "./zstd/frames";

/** One log file of a chat. Older generations stay untouched beside the newest. */
export interface Generation extends LogName {
  path: string;
  /** Size of the file as stored. */
  bytes: number;
  /** True for the chat's current state (its newest format). */
  current: boolean;
  /** Set when the file is of the other form than the folder keeps, or must not be opened: the refusal. */
  refused: string | null;
  /**
   * Set when the file must not be opened at all, not even as stored (a link
   * leading outside the log folder or looping, a FIFO, socket or device): the
   * refusal, also in `refused`, and the kind of problem it is.
   */
  blocked: BlockedEntry | null;
}

/** A chat folder's entries, with the ones named like its files that must not be opened. */
export interface ChatFolderFiles {
  names: string[];
  blocked: Map<string, BlockedEntry>;
}

function chatFileRole(name: string): "log" | "other" | null {
  if (parseLogName(name)) return "log";
  return name === CACHE_FILE || name === LOCK_FILE ? "other" : null;
}

/** Reads a chat folder's entries, screening links and special files named like its logs, checkpoint and lock. */
export function readChatFolder(loc: Pick<ChatLocation, "dir" | "root">): ChatFolderFiles {
  return screenChatFolder(loc.dir, loc.root, chatFileRole);
}

/** One chat as the list shows it. */
export interface ChatSummary extends ChatDetails {
  id: string;
  /** The chat folder relative to the log folder. */
  folder: string;
  group: string;
  cwd: string | null;
  /** The current log's format (`null`: no usable log). */
  format: number | null;
  created: string | null;
  generations: Generation[];
  /** The chat this one continues. */
  continues: string | null;
  /** True when the details come from the checkpoint (`cacheState` cached or behind). */
  cached: boolean;
  cacheState: CacheState;
  cacheReason: string;
  /** How many bytes the log has beyond the checkpoint. */
  behindBytes: number;
  lock: LockStatus;
  /** The tail report, when the log was read to its end. */
  tail: TailReport | null;
  problems: Problem[];
  /** With `identify`: the identities of the files read, taken before reading them (the listing's memory). */
  verified?: VerifiedStamps;
  /** True when the listing served these details from the admin state's memory (`remembered.ts`). */
  remembered?: boolean;
}

/** The sentence for a log of the other form (`docs/file-contract.md`, Layout). */
export function formSentence(path: string, compressed: boolean, folderCompressed: boolean): string {
  const form = (z: boolean) => (z ? "zstd-compressed" : "plain");
  return withRawLog(`${path} is ${form(compressed)} but this log folder keeps ${form(folderCompressed)} logs.`, path);
}

/** Options for `summarizeChat`. */
export interface SummarizeOptions {
  /** The folder's form: `sessions.compress` (default true). */
  compress: boolean;
  /** Read the whole log even when the checkpoint could be served (doctor). */
  verify?: boolean;
  /** Decoded bytes a zstd batch aims at when the log is read whole. */
  batchOutput?: number;
  /** Keep each log's decoded first line for the next listing in this process (a server lists again; the CLI does not). */
  memo?: boolean;
  /**
   * Reads the current log whole for its details instead of `rebuildDetails`:
   * the index's reader, which extracts the log's text in the same pass.
   */
  rebuild?: (current: Generation) => Promise<RebuiltLog>;
  /** The chat folder's entries as just read by the caller (the index's reader, for its fingerprint). */
  files?: ChatFolderFiles;
  /** The current log, opened once by the caller: every read of it goes through this descriptor. */
  log?: OpenLog;
  /** Take the identities of the folder, newest log and checkpoint before reading them (`ChatSummary.verified`). */
  identify?: boolean;
  /**
   * Given the current log's head as read and decoded (the index's reader: its tail hasher and first frame's
   * decode serve the reading of the whole log, so the log is opened and a short one decoded once).
   */
  onHead?: (head: LogHead) => void;
}

/** A chat folder's log generations by name, judged against the folder's form; sizes not read yet (0). */
export function nameGenerations(dir: string, files: ChatFolderFiles, compress: boolean): Generation[] {
  const gens: Generation[] = [];
  const prefix = dir.endsWith(sep) ? dir : `${dir}${sep}`;
  for (const name of files.names) {
    const parsed = parseLogName(name);
    if (!parsed) continue;
    // Names from readdir hold no separator: joined by hand (path.join's normalising shows in a 10,000-chat listing).
    const path = `${prefix}${name}`;
    const blocked = files.blocked.get(name) ?? null;
    const refused =
      blocked?.message ?? (parsed.compressed === compress ? null : formSentence(path, parsed.compressed, compress));
    gens.push({
      name,
      format: parsed.format,
      compressed: parsed.compressed,
      path,
      bytes: 0,
      current: false,
      refused,
      blocked,
    });
  }
  if (gens.length > 1) gens.sort((a, b) => a.format - b.format || Number(a.compressed) - Number(b.compressed));
  markCurrent(gens);
  return gens;
}

/**
 * The newest format is the current state; if that one is refused (of the wrong
 * form, or not to be opened), the chat is refused rather than served from an
 * older generation (Oda never falls back to an older state).
 */
function markCurrent(gens: Generation[]): void {
  let newest = 0;
  for (const g of gens) {
    g.current = false;
    if (g.format > newest) newest = g.format;
  }
  const current = gens.find((g) => g.format === newest && !g.refused);
  if (current) current.current = true;
}

/** Refuses a generation that turned out not to be a regular file when opened, or that the system would not give. */
function blockGeneration(
  gens: Generation[],
  gen: Generation,
  message: string,
  kind: BlockedEntry["kind"] = "special",
): void {
  gen.blocked = { kind, message: withRawLog(message, gen.path) };
  gen.refused = gen.blocked.message;
  gen.bytes = 0;
  markCurrent(gens);
}

/** Lists a chat folder's log generations, judging each against the folder's form; blocked ones are not opened. */
export function listGenerations(dir: string, files: ChatFolderFiles, compress: boolean): Generation[] {
  const gens = nameGenerations(dir, files, compress);
  for (const g of gens) if (!g.blocked) g.bytes = statSync(g.path).size;
  return gens;
}

/** The problem a stale `session.lock` is, with the holder it names and why it is stale; `null` otherwise. */
export function lockProblem(path: string, lock: LockStatus): Problem | null {
  if (lock.state !== "stale") return null;
  return problemAt(
    "lock",
    path,
    `The session.lock is stale (held by process ${lock.pid} on ${lock.host}, started ${lock.startedAt}): ${lock.reason} Oda cannot write this chat until the lock file is removed.`,
  );
}

/** The problem a checkpoint that no longer fits its log is (discarded), with the reason. */
function discardedProblem(path: string, reason: string): Problem {
  return problemAt(
    "cache",
    path,
    `The checkpoint does not match the log and was discarded: ${reason} The details were rebuilt from the log.`,
  );
}

/**
 * True when the part of a log after a completed save (`from`, a frame boundary)
 * ends in an unfinished piece: found from frame headers only, or the last byte.
 */
export function endsUnfinished(gen: Generation, from: number): boolean {
  let fd: number;
  try {
    fd = openRegularSync(gen.path).fd;
  } catch {
    return true;
  }
  try {
    if (!gen.compressed) return readRange(fd, gen.bytes - 1, gen.bytes)[0] !== 10;
    const win = new FileWindow(fd, gen.bytes, 4096);
    for (let pos = from; pos < gen.bytes; ) {
      const frame = walkFrame(win, pos);
      if (frame.cut) return true;
      pos += frame.length;
    }
    return false;
  } catch {
    return true;
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads one chat folder: its generations, lock, checkpoint and details. A
 * system error on one of its files or on the folder (permission, removed while
 * read, I/O error, …) is this chat's problem, with what was read so far: the
 * walk over the other chats goes on.
 */
export async function summarizeChat(loc: ChatLocation, options: SummarizeOptions): Promise<ChatSummary> {
  try {
    if (!options.identify) return await summarizeChatFiles(loc, options);
    // The identities first, then the files they describe: a change made meanwhile changes an identity.
    const dir = identityNow(loc.dir);
    const files = options.files ?? readChatFolder(loc);
    const current = nameGenerations(loc.dir, files, options.compress).find((g) => g.current);
    const verified: VerifiedStamps = {
      root: loc.root,
      dir,
      logName: current?.name ?? null,
      log: current ? identityNow(current.path) : "-",
      checkpoint: identityNow(`${loc.dir}${sep}${CACHE_FILE}`),
    };
    const summary = await summarizeChatFiles(loc, { ...options, files });
    summary.verified = verified;
    return summary;
  } catch (error) {
    if (!isSystemError(error)) throw error;
    return unreadableChat(loc, error);
  }
}

/** A chat the system would not give (see `summarizeChat`): no details, one problem naming the path. */
export function unreadableChat(loc: ChatLocation, error: NodeJS.ErrnoException): ChatSummary {
  const path = systemErrorPath(error, loc.dir);
  return {
    ...emptySummary(loc),
    lock: { state: "unknown", reason: "The chat folder could not be read." },
    problems: [problemAt("system", path, systemErrorSentence(error, path), { paths: [path] })],
  };
}

function emptySummary(loc: ChatLocation): ChatSummary {
  return {
    id: loc.id,
    folder: loc.folder,
    group: loc.group,
    cwd: loc.cwd,
    format: null,
    created: null,
    generations: [],
    continues: null,
    title: null,
    firstActivity: null,
    lastActivity: null,
    messages: 0,
    models: [],
    inputTokens: 0,
    outputTokens: 0,
    cached: false,
    cacheState: "none",
    cacheReason: "No checkpoint.",
    behindBytes: 0,
    lock: { state: "none", reason: "No lock file." },
    tail: null,
    problems: [],
  };
}

async function summarizeChatFiles(loc: ChatLocation, options: SummarizeOptions): Promise<ChatSummary> {
  const files = options.files ?? readChatFolder(loc);
  const { names } = files;
  const generations = nameGenerations(loc.dir, files, options.compress);
  // The current log is opened once for its size, first frame and (small logs) tail; the others are only sized.
  let headBytes: HeadBytes | null = null;
  for (const g of generations) {
    if (g.blocked) continue;
    try {
      if (!g.current) {
        g.bytes = statSync(g.path).size;
        continue;
      }
      headBytes = readHeadBytes(g.path, options.log);
      g.bytes = headBytes.size;
    } catch (error) {
      // Swapped for a FIFO or the like since the folder was listed: refused like one listed as such. One the
      // system would not give (no permission, I/O error, removed meanwhile) is refused with what it answered.
      if (isSystemError(error)) blockGeneration(generations, g, systemErrorSentence(error, g.path), "system");
      else if (isOdaError(error)) blockGeneration(generations, g, error.message);
      else throw error;
    }
  }
  const problems: Problem[] = generations
    .filter((g) => g.refused)
    .map((g) => problemAt(g.blocked?.kind ?? ("form" as const), g.path, g.refused as string));
  const lockPath = `${loc.dir}${sep}${LOCK_FILE}`;
  const lockBlocked = files.blocked.get(LOCK_FILE);
  if (lockBlocked) problems.push(problemAt(lockBlocked.kind, lockPath, lockBlocked.message));
  const lock: LockStatus = lockBlocked
    ? { state: "unknown", reason: lockBlocked.message }
    : names.includes(LOCK_FILE)
      ? readLockStatus(lockPath)
      : { state: "none", reason: "No lock file." };
  const stale = lockProblem(lockPath, lock);
  if (stale) problems.push(stale);
  if (lock.unreadable) problems.push(problemAt("system", lockPath, lock.reason));
  const summary: ChatSummary = { ...emptySummary(loc), generations, lock, problems };
  // Reported whether or not there is a log to go with it.
  const cacheBlocked = files.blocked.get(CACHE_FILE);
  if (cacheBlocked) {
    summary.cacheState = "unreadable";
    summary.cacheReason = cacheBlocked.message;
    problems.push(problemAt(cacheBlocked.kind, `${loc.dir}${sep}${CACHE_FILE}`, cacheBlocked.message));
  }
  const current = generations.find((g) => g.current);
  if (!current || !headBytes) {
    if (!generations.length) problems.push(problemAt("no-log", loc.dir, "The chat folder holds no log."));
    return summary;
  }
  summary.format = current.format;
  const head = await decodeLogHead(current.path, current.compressed, headBytes, options.memo, options.log);
  options.onHead?.(head);
  const first = head.first;
  const header = asHeader(first);
  let identity: ChatIdentity = header
    ? { id: header.id, created: header.created, cwd: header.cwd, continues: header.continues }
    : { id: loc.id, created: typeof first?.time === "string" ? first.time : null, cwd: loc.cwd, continues: null };
  if (header && (header.id !== loc.id || header.cwd !== loc.cwd)) {
    problems.push(
      problemAt(
        "identity",
        current.path,
        withRawLog(
          `The log's header names chat "${header.id}" working in ${header.cwd ?? "no folder"}, but it is stored as chat "${loc.id}" under ${loc.group}.`,
          current.path,
        ),
      ),
    );
  }
  identity = { ...identity, id: loc.id, cwd: loc.cwd };
  Object.assign(summary, { created: identity.created, continues: identity.continues });
  let checkpoint: Checkpoint | null = null;
  const cachePath = `${loc.dir}${sep}${CACHE_FILE}`;
  if (!cacheBlocked && names.includes(CACHE_FILE)) {
    const read = await readCheckpoint(cachePath);
    if (read && "error" in read && read.system) {
      summary.cacheState = "unreadable";
      summary.cacheReason = read.error;
      problems.push(problemAt("system", cachePath, `${read.error} The details were rebuilt from the log.`));
    } else if (read && "error" in read) {
      summary.cacheState = "unreadable";
      summary.cacheReason = `The checkpoint cannot be read: ${read.error}`;
      problems.push(problemAt("cache", cachePath, `${summary.cacheReason}; the details were rebuilt from the log.`));
    } else if (read) checkpoint = read.checkpoint;
  }
  if (checkpoint && !header && identity.created === null) identity.created = checkpoint.identity.created;
  if (checkpoint) {
    const verdict = judgeCheckpoint(checkpoint, identity, {
      name: current.name,
      path: current.path,
      size: head.size,
      hashTail: head.hashTail,
    });
    summary.cacheState = verdict.state;
    summary.cacheReason = verdict.reason;
    summary.behindBytes = verdict.behindBytes;
    if (verdict.state === "discarded") problems.push(discardedProblem(cachePath, verdict.reason));
    if (verdict.state === "cached" || verdict.state === "behind") {
      const d = checkpoint.details;
      Object.assign(summary, {
        cached: true,
        title: d.title,
        messages: d.messages,
        firstActivity: identity.created,
        lastActivity: d.lastActivity,
        models: d.model ? [d.model] : [],
        inputTokens: d.inputTokens,
        outputTokens: d.outputTokens,
      });
      if (!options.verify && !(verdict.behindBytes && endsUnfinished(current, checkpoint.log.bytes))) return summary;
    }
  }
  const rebuilt = options.rebuild
    ? await options.rebuild(current)
    : await rebuildDetails(current.path, current.compressed, { batchOutput: options.batchOutput, open: options.log });
  // Read whole (verify): the details shown are the log's, whatever the checkpoint said.
  Object.assign(summary, rebuilt.details, { cached: false });
  summary.tail = rebuilt.tail;
  for (const n of rebuilt.badLines) {
    problems.push(
      problemAt("line", current.path, withRawLog(`Line ${n} of the log is not a JSON object.`, current.path)),
    );
  }
  for (const long of rebuilt.longLines) {
    problems.push(problemAt("line", current.path, longLineProblem(current.path, long)));
  }
  if (rebuilt.error) problems.push(problemAt("unreadable", current.path, rebuilt.error));
  if (rebuilt.tail?.message) problems.push(problemAt("tail", current.path, rebuilt.tail.message));
  return summary;
}

/** The problem for a line over the line limit: where it is, how long, and that it is shown truncated. */
export function longLineProblem(path: string, line: LongLine): string {
  return withRawLog(
    `Line ${line.n} of the log (at decoded byte ${line.offset}) is ${line.length} bytes long, over the limit of ${logLimits().maxLineBytes} bytes for one line; it is shown truncated and can be downloaded alone.`,
    path,
  );
}
