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
    const { files, verified } = identifyChat(loc, options);
    return { ...(await summarizeChatFiles(loc, { ...options, files })), verified };
  } catch (error) {
    if (!isSystemError(error)) throw error;
    return unreadableChat(loc, error);
  }
}

/**
 * The identities of a chat's folder, newest log and checkpoint, taken before the files they describe are
 * read (a change made meanwhile changes an identity), and the folder's entries read after the folder's.
 */
function identifyChat(
  loc: ChatLocation,
  options: SummarizeOptions,
): { files: ChatFolderFiles; verified: VerifiedStamps } {
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
  return { files, verified };
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

/**
 * Reads one chat's files in stages, each returning its part, composed at the end: the generations sized
 * and the current log's head read (`sizeGenerations`); the folder's lock and blocked files (`folderState`);
 * the identity the log's first line tells (`logIdentity`); the checkpoint read (`readChatCheckpoint`) and
 * judged against the log (`judgedCheckpoint`); and, unless the checkpoint serves, the log read whole
 * (`rebuiltPart`).
 */
async function summarizeChatFiles(loc: ChatLocation, options: SummarizeOptions): Promise<ChatSummary> {
  const files = options.files ?? readChatFolder(loc);
  const generations = nameGenerations(loc.dir, files, options.compress);
  const headBytes = sizeGenerations(generations, options.log);
  const folder = folderState(loc, files, generations);
  const base: ChatSummary = { ...emptySummary(loc), generations, lock: folder.lock, ...folder.cache };
  const current = generations.find((g) => g.current);
  if (!current || !headBytes) {
    const noLog = generations.length ? [] : [problemAt("no-log", loc.dir, "The chat folder holds no log.")];
    return { ...base, problems: [...folder.problems, ...noLog] };
  }
  const head = await decodeLogHead(current.path, current.compressed, headBytes, options.memo, options.log);
  options.onHead?.(head);
  const told = logIdentity(loc, current, head.first);
  const cachePath = `${loc.dir}${sep}${CACHE_FILE}`;
  const read = folder.cache || !files.names.includes(CACHE_FILE) ? NO_CHECKPOINT : await readChatCheckpoint(cachePath);
  const judged = read.checkpoint
    ? judgedCheckpoint(read.checkpoint, told, current, head, cachePath, options.verify === true)
    : null;
  const summary: ChatSummary = {
    ...base,
    ...read.cache,
    format: current.format,
    created: told.identity.created,
    continues: told.identity.continues,
    ...judged?.cache,
    ...judged?.details,
    problems: [...folder.problems, ...told.problems, ...read.problems, ...(judged?.problems ?? [])],
  };
  if (judged?.serves) return summary;
  const rebuilt = options.rebuild
    ? await options.rebuild(current)
    : await rebuildDetails(current.path, current.compressed, { batchOutput: options.batchOutput, open: options.log });
  // Read whole (verify): the details shown are the log's, whatever the checkpoint said.
  return {
    ...summary,
    ...rebuilt.details,
    cached: false,
    tail: rebuilt.tail,
    problems: [...summary.problems, ...rebuiltProblems(current.path, rebuilt)],
  };
}

/**
 * Sizes each generation that may be opened. The current log is opened once for its size, first frame and
 * (small logs) tail: its head's bytes are returned (`null` without one); the others are only sized. One
 * that turns out not to be a regular file, or that the system would not give, is refused in place.
 */
function sizeGenerations(generations: Generation[], log: OpenLog | undefined): HeadBytes | null {
  let headBytes: HeadBytes | null = null;
  for (const g of generations) {
    if (g.blocked) continue;
    try {
      if (!g.current) {
        g.bytes = statSync(g.path).size;
        continue;
      }
      headBytes = readHeadBytes(g.path, log);
      g.bytes = headBytes.size;
    } catch (error) {
      // Swapped for a FIFO or the like since the folder was listed: refused like one listed as such. One the
      // system would not give (no permission, I/O error, removed meanwhile) is refused with what it answered.
      if (isSystemError(error)) blockGeneration(generations, g, systemErrorSentence(error, g.path), "system");
      else if (isOdaError(error)) blockGeneration(generations, g, error.message);
      else throw error;
    }
  }
  return headBytes;
}

/** The checkpoint's part of a summary: its state and why, and how far the log runs beyond it. */
type CacheFields = Partial<Pick<ChatSummary, "cacheState" | "cacheReason" | "behindBytes">>;

/** What the folder's entries tell before any log is decoded. */
interface FolderState {
  lock: LockStatus;
  /** Set when the checkpoint must not be opened (a FIFO, a link out of the folder…): then it is not read. */
  cache: CacheFields | null;
  /** The refused generations', the lock's and a blocked checkpoint's problems, in that order. */
  problems: Problem[];
}

/** The folder's lock, and the problems of its refused generations, its lock and a checkpoint not to be opened. */
function folderState(loc: ChatLocation, files: ChatFolderFiles, generations: Generation[]): FolderState {
  const problems: Problem[] = generations
    .filter((g) => g.refused)
    .map((g) => problemAt(g.blocked?.kind ?? ("form" as const), g.path, g.refused as string));
  const lockPath = `${loc.dir}${sep}${LOCK_FILE}`;
  const lockBlocked = files.blocked.get(LOCK_FILE);
  if (lockBlocked) problems.push(problemAt(lockBlocked.kind, lockPath, lockBlocked.message));
  const lock: LockStatus = lockBlocked
    ? { state: "unknown", reason: lockBlocked.message }
    : files.names.includes(LOCK_FILE)
      ? readLockStatus(lockPath)
      : { state: "none", reason: "No lock file." };
  const stale = lockProblem(lockPath, lock);
  if (stale) problems.push(stale);
  if (lock.unreadable) problems.push(problemAt("system", lockPath, lock.reason));
  // Reported whether or not there is a log to go with it.
  const cacheBlocked = files.blocked.get(CACHE_FILE);
  if (!cacheBlocked) return { lock, cache: null, problems };
  problems.push(problemAt(cacheBlocked.kind, `${loc.dir}${sep}${CACHE_FILE}`, cacheBlocked.message));
  return { lock, cache: { cacheState: "unreadable", cacheReason: cacheBlocked.message }, problems };
}

/** Who the log says the chat is. */
interface ToldIdentity {
  /** Set when the log opens with a format 4 header. */
  header: boolean;
  /** The chat's identity: its id and working folder always the stored ones. */
  identity: ChatIdentity;
  /** A header naming another chat or folder than where the log is stored. */
  problems: Problem[];
}

/** The identity the current log's first line tells (a format 4 header, else the first line's time). */
function logIdentity(loc: ChatLocation, current: Generation, first: LogHead["first"]): ToldIdentity {
  const header = asHeader(first);
  const created = header ? header.created : typeof first?.time === "string" ? first.time : null;
  const identity: ChatIdentity = { id: loc.id, created, cwd: loc.cwd, continues: header ? header.continues : null };
  if (!header || (header.id === loc.id && header.cwd === loc.cwd)) return { header: !!header, identity, problems: [] };
  const problem = problemAt(
    "identity",
    current.path,
    withRawLog(
      `The log's header names chat "${header.id}" working in ${header.cwd ?? "no folder"}, but it is stored as chat "${loc.id}" under ${loc.group}.`,
      current.path,
    ),
  );
  return { header: true, identity, problems: [problem] };
}

/** A checkpoint as read: the one to judge, or why there is none to judge. */
interface CheckpointRead {
  checkpoint: Checkpoint | null;
  /** Set when it could not be read: `unreadable`, and why. */
  cache: CacheFields | null;
  problems: Problem[];
}

const NO_CHECKPOINT: CheckpointRead = { checkpoint: null, cache: null, problems: [] };

/** Reads the chat's checkpoint; one the system would not give or that does not parse is its problem. */
async function readChatCheckpoint(cachePath: string): Promise<CheckpointRead> {
  const read = await readCheckpoint(cachePath);
  if (!read) return NO_CHECKPOINT;
  if (!("error" in read)) return { checkpoint: read.checkpoint, cache: null, problems: [] };
  if (read.system) {
    const problem = problemAt("system", cachePath, `${read.error} The details were rebuilt from the log.`);
    return { checkpoint: null, cache: { cacheState: "unreadable", cacheReason: read.error }, problems: [problem] };
  }
  const cacheReason = `The checkpoint cannot be read: ${read.error}`;
  const problem = problemAt("cache", cachePath, `${cacheReason}; the details were rebuilt from the log.`);
  return { checkpoint: null, cache: { cacheState: "unreadable", cacheReason }, problems: [problem] };
}

/** A checkpoint judged against the log. */
interface JudgedCheckpoint {
  cache: Required<CacheFields>;
  /** The checkpoint's details, when it is cached or behind. */
  details: Partial<ChatSummary> | null;
  /** True when its details are served as they are: the log need not be read whole. */
  serves: boolean;
  problems: Problem[];
}

/**
 * Judges the checkpoint against the current log. A cached or behind one gives
 * its details, served unless asked to verify or the log's part beyond it ends
 * unfinished; a discarded one is a problem.
 */
function judgedCheckpoint(
  checkpoint: Checkpoint,
  told: ToldIdentity,
  current: Generation,
  head: LogHead,
  cachePath: string,
  verify: boolean,
): JudgedCheckpoint {
  // Without a header, the chat was created when its checkpoint says (the summary's `created` stays the log's).
  const identity =
    !told.header && told.identity.created === null
      ? { ...told.identity, created: checkpoint.identity.created }
      : told.identity;
  const verdict = judgeCheckpoint(checkpoint, identity, {
    name: current.name,
    path: current.path,
    size: head.size,
    hashTail: head.hashTail,
  });
  const cache = { cacheState: verdict.state, cacheReason: verdict.reason, behindBytes: verdict.behindBytes };
  if (verdict.state === "discarded")
    return { cache, details: null, serves: false, problems: [discardedProblem(cachePath, verdict.reason)] };
  if (verdict.state !== "cached" && verdict.state !== "behind")
    return { cache, details: null, serves: false, problems: [] };
  const d = checkpoint.details;
  const details = {
    cached: true,
    title: d.title,
    messages: d.messages,
    firstActivity: identity.created,
    lastActivity: d.lastActivity,
    models: d.model ? [d.model] : [],
    inputTokens: d.inputTokens,
    outputTokens: d.outputTokens,
  };
  const serves = !verify && !(verdict.behindBytes && endsUnfinished(current, checkpoint.log.bytes));
  return { cache, details, serves, problems: [] };
}

/** The problems a whole read of the log found: lines not JSON, lines over the limit, a stop, its tail. */
function rebuiltProblems(path: string, rebuilt: RebuiltLog): Problem[] {
  const problems: Problem[] = [];
  for (const n of rebuilt.badLines) {
    problems.push(problemAt("line", path, withRawLog(`Line ${n} of the log is not a JSON object.`, path)));
  }
  for (const long of rebuilt.longLines) problems.push(problemAt("line", path, longLineProblem(path, long)));
  if (rebuilt.error) problems.push(problemAt("unreadable", path, rebuilt.error));
  if (rebuilt.tail?.message) problems.push(problemAt("tail", path, rebuilt.tail.message));
  return problems;
}

/** The problem for a line over the line limit: where it is, how long, and that it is shown truncated. */
export function longLineProblem(path: string, line: LongLine): string {
  return withRawLog(
    `Line ${line.n} of the log (at decoded byte ${line.offset}) is ${line.length} bytes long, over the limit of ${logLimits().maxLineBytes} bytes for one line; it is shown truncated and can be downloaded alone.`,
    path,
  );
}
