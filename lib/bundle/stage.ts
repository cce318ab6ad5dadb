import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import { closeSync, createReadStream, promises as fsp, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Checkpoint, checkpointDetails, hashLogTail, parseCheckpoint } from "../chats/checkpoint";
import { type ChatDetails, DetailsBuilder, DetailsRebuild, type RebuiltLog } from "../chats/details";
import { decodeName, encodeName, groupName, parseGroupName } from "../chats/names";
import { openRegularSync } from "../fs/open-regular";
import { isSystemError, isVanished } from "../fs/system-error";
import { redactBytes } from "./bytes";
import { type LeftOut, leftOutOf, type PlannedFile } from "./plan";
import type { ReadAhead } from "./read-ahead";
import { redactLog } from "./redact-log";
import { dropRun, redactMemoryText } from "./redact-memory";
import type { Redactor } from "./redactor";
import type { Spool, SpoolRange } from "./spool";

/**
 * Logs up to this size on disk are rewritten straight away; a larger one is
 * read lazily (`RedactLogOptions.lazy`): nothing is encoded before its first
 * change, so a huge log with no secret is never encoded again, and a log is
 * decoded once either way. A small log changes at its first line anyway (its
 * header names the working folder).
 */
const LAZY_FROM_BYTES = 1024 * 1024;

/** A log rewritten into the spool, and what its checkpoint must say of it. */
export interface RewrittenLog {
  range: SpoolRange;
  details: ChatDetails;
  /** The original's path and size as planned (what its checkpoint was judged against). */
  source: string;
  size: number;
}

/** The details a preview keeps of a rewritten log: none (see `rewriteLog`). */
const NO_DETAILS: ChatDetails = new DetailsBuilder().result();

/**
 * A preview's rewritten log: nothing written, so its size is its original's and it has no details (a
 * checkpoint's new details are never written; a preview of 100,000 chats would hold one per chat).
 */
export function previewRewritten(f: Pick<PlannedFile, "source" | "size">): RewrittenLog {
  const range = { start: 0, size: f.size, sha256: "", tailSha256: "" };
  return { range, details: NO_DETAILS, source: f.source, size: f.size };
}

/** Logs redacted while the doctor read them, by source (a `Map`, or a preview's flags: `lib/bundle/preview.ts`). */
export interface Prestaged {
  has(source: string): boolean;
  get(source: string): RewrittenLog | null | undefined;
  set(source: string, log: RewrittenLog | null): unknown;
  delete(source: string): unknown;
  clear(): void;
}

/** One file as it goes in the bundle: from its original (first `size` bytes), a staged copy, or memory. */
export interface StagedFile {
  path: string;
  size: number;
  sha256: string;
  /** Bytes from `start` (default 0) of a file: the original log, or the spool (rewritten logs, small files). `data`: the reports and manifest. */
  from: { file: string; start?: number } | { data: Buffer };
  /** True when the bytes differ from the original's. */
  redacted: boolean;
}

/** Options shared by every file of one bundle. */
export interface StageOptions {
  redactor: Redactor;
  dropText: boolean;
  /**
   * Where rewritten logs and every small file go (removed by the caller).
   * `null`: the preview, which only counts what each kind replaces: logs are
   * redacted without being encoded or kept, nothing is hashed, and a
   * rewritten log's size is its original's.
   */
  spool: Spool | null;
  onBytes?: (n: number) => void;
  /** Receives each file removed meanwhile or not to be read: it is left out, the others are staged. */
  leftOut?: LeftOut[];
  /** The home's `fileMaxBytes`: a memory file over it stays over it, whatever redaction took out. */
  fileMaxBytes?: number;
  /**
   * Logs already redacted while the doctor read them (`stageLogEarly`), by source: staged from this, never read
   * again. An entry is taken out when its log is staged.
   */
  prestaged?: Prestaged;
  /** Counts each decode of a log (tests). */
  onDecode?: (source: string) => void;
}

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** Reads a small file of the roots (never a FIFO). */
function readSmall(path: string): Buffer {
  const { fd } = openRegularSync(path, { noFollow: true });
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** sha-256 of the first `size` bytes of a file (a log may grow while it is bundled; only these go in). */
export async function hashPrefix(path: string, size: number, onBytes?: (n: number) => void): Promise<string> {
  const hash = createHash("sha256");
  if (size > 0) {
    for await (const chunk of createReadStream(path, { start: 0, end: size - 1, highWaterMark: 1 << 20 })) {
      hash.update(chunk as Buffer);
      onBytes?.((chunk as Buffer).length);
    }
  }
  return hash.digest("hex");
}

/** A bundle path with every folder name redacted as the log folder or the home spells it. */
export function redactBundlePath(path: string, r: Redactor): string {
  const parts = path.split("/");
  if (parts[0] === "logs" && parts.length >= 4) {
    const group = parseGroupName(parts[1] as string);
    parts[1] = group
      ? groupName(group.cwd === null ? null : r.redactText(group.cwd))
      : r.redactText(parts[1] as string);
    const id = decodeName(parts[2] as string);
    parts[2] = id === null ? r.redactText(parts[2] as string) : encodeName(r.redactText(id));
  } else if (
    parts[0] === "home" &&
    (parts[1] === "memory" || parts[1] === "memory-history") &&
    parts[2] === "workspaces"
  ) {
    parts[3] = r.redactWorkspaceKey(parts[3] as string);
  }
  return parts.join("/");
}

/** A small file as it goes in, kept in the spool (as it was read: the original may change meanwhile). */
function fromData(spool: Spool | null, f: PlannedFile, path: string, data: Buffer, original: Buffer): StagedFile {
  const redacted = !data.equals(original);
  if (!spool) return { path, size: data.length, sha256: "", from: { file: f.source }, redacted };
  const { start, size, sha256 } = spool.add(data);
  return { path, size, sha256, from: { file: spool.path, start }, redacted };
}

/** JSON redacted value by value, written back compactly only when something changed. */
function redactJsonFile(original: Buffer, r: Redactor, fix?: (v: Record<string, unknown>) => void): Buffer {
  const asText = () => redactBytes(original, (text) => r.redactText(text));
  if (!isUtf8(original)) return asText();
  let value: unknown;
  try {
    value = JSON.parse(original.toString("utf8"));
  } catch {
    return asText();
  }
  const out = r.redactJson(value);
  if (fix && out && typeof out === "object") fix(out as Record<string, unknown>);
  const changed = JSON.stringify(out) !== JSON.stringify(value);
  return changed ? Buffer.from(`${JSON.stringify(out, null, 2)}\n`) : original;
}

/**
 * Stages the files of one bundle in order. Memory files come before their
 * history so that `state.json` can be made to name the redacted file's hash;
 * a chat's logs come before its checkpoint, which is rebuilt to fit them.
 */
export async function stageFiles(
  files: Iterable<PlannedFile>,
  o: StageOptions,
  sink?: (f: StagedFile) => void,
): Promise<StagedFile[]> {
  const out: StagedFile[] = [];
  // original source → its range of the spool, for the checkpoint after it
  const state: StageState = { shaMap: new Map(), rewrittenLogs: new Map(), chatDir: "", held: 0 };
  for (const f of files) {
    // Progress counts files as stored, whatever reading them took (a log may decompress tenfold); a log
    // redacted while the doctor read it was counted then.
    if (!o.prestaged?.has(f.source)) o.onBytes?.(f.size);
    try {
      const staged = await stageOne(f, o, state);
      // A preview gives each file to `sink` and keeps none (100,000 chats are 200,000 files).
      if (sink) sink(staged);
      else out.push(staged);
    } catch (error) {
      if (!isSystemError(error)) throw error;
      // Removed (a chat folder deleted meanwhile) or not to be read: left out, listed, the bundle goes on.
      o.leftOut?.push(leftOutOf(f.path, f.source, error));
    }
  }
  o.prestaged?.clear();
  return out;
}

/** What staging one file needs of the files before it. */
interface StageState {
  shaMap: Map<string, string>;
  rewrittenLogs: Map<string, RewrittenLog>;
  chatDir: string;
  /** Logs held beside the spool so far (each a `log-<n>` link). */
  held: number;
}

/** Stages one file (see `stageFiles`). */
async function stageOne(f: PlannedFile, o: StageOptions, st: StageState): Promise<StagedFile> {
  const r = o.redactor;
  const passThrough = r.off && !o.dropText;
  r.file = "\u0000pending";
  const path = redactBundlePath(f.path, r);
  r.nameFile(path);
  // A chat's files come together: what its checkpoint needs of its logs is dropped once past it.
  const dir = dirname(f.source);
  if (dir !== st.chatDir) st.rewrittenLogs.clear();
  st.chatDir = dir;
  if (f.role === "log") {
    const compressed = f.compressed ?? true;
    const early = o.prestaged?.get(f.source);
    // Held for its checkpoint in `st.rewrittenLogs` from here: 100,000 chats' early logs are not all kept.
    o.prestaged?.delete(f.source);
    if (early !== undefined) {
      // What was replaced while the doctor read it is counted under this path too.
      r.file = `\u0000early:${f.source}`;
      r.nameFile(path);
    }
    const prestaged = early && !o.spool ? previewRewritten(f) : early;
    const staged =
      prestaged !== undefined ? prestaged : passThrough ? null : (await rewriteLog(f, compressed, o, false)).log;
    if (staged) {
      st.rewrittenLogs.set(f.source, staged);
      const { start, size, sha256 } = staged.range;
      return { path, size, sha256, from: { file: o.spool?.path ?? f.source, start }, redacted: true };
    }
    if (!o.spool) return { path, size: f.size, sha256: "", from: { file: f.source }, redacted: false };
    return { path, ...(await holdLog(f, o.spool, st)), redacted: false };
  }
  const original = readSmall(f.source);
  if (passThrough) return fromData(o.spool, f, path, original, original);
  if (f.role === "memory" || (f.role === "history" && !/\.json$/.test(f.path))) {
    // A file that is not valid UTF-8 (a problem the doctor names) keeps every byte that is not text.
    let data = isUtf8(original)
      ? redactBytes(original, (text) => redactMemoryText(text, r, o.dropText))
      : redactBytes(original, (text) => (o.dropText ? dropRun(text) : r.redactText(text)));
    data = keepTooLarge(original, data, o.fileMaxBytes);
    st.shaMap.set(sha(original), sha(data));
    return fromData(o.spool, f, path, data, original);
  }
  if (f.role === "history") {
    const fix = (v: Record<string, unknown>) => {
      if (typeof v.sha256 === "string") v.sha256 = st.shaMap.get(v.sha256) ?? v.sha256;
    };
    return fromData(o.spool, f, path, redactJsonFile(original, r, fix), original);
  }
  if (f.role === "checkpoint")
    return fromData(o.spool, f, path, await stageCheckpoint(f, original, r, st.rewrittenLogs), original);
  return fromData(o.spool, f, path, redactJsonFile(original, r), original);
}

/**
 * A log that goes in unchanged, held so that removing it after staging cannot stop the bundle (issue 24): a
 * hard link beside the spool keeps its bytes while the archive is written; where the system refuses a link
 * (another file system, a file of another owner under `fs.protected_hardlinks`), its first `size` bytes are
 * copied into the spool, streamed from one descriptor (never held whole). A log cut shorter while it is
 * copied goes in as far as it could be read, as a log still being written does.
 */
async function holdLog(
  f: PlannedFile,
  spool: Spool,
  st: StageState,
): Promise<{ size: number; sha256: string; from: { file: string; start?: number } }> {
  const linked = join(dirname(spool.path), `log-${++st.held}`);
  try {
    await fsp.link(f.source, linked);
    // A link to a symbolic link (link(2) does not follow one) is never streamed through: copied instead.
    if ((await fsp.lstat(linked)).isFile())
      return { size: f.size, sha256: await hashPrefix(linked, f.size), from: { file: linked } };
    await fsp.rm(linked, { force: true });
  } catch (error) {
    // Gone: left out by the caller. Anything else the link was refused for (EXDEV, EPERM, …): copied below,
    // and an error the copy meets is the log's own.
    if (isVanished(error)) throw error;
  }
  const { fd } = openRegularSync(f.source, { noFollow: true });
  const writer = spool.begin();
  try {
    if (f.size > 0)
      for await (const chunk of createReadStream("", { fd, autoClose: false, start: 0, end: f.size - 1 }))
        writer.write(chunk as Buffer);
    const { start, size, sha256 } = spool.finish();
    return { size, sha256, from: { file: spool.path, start } };
  } catch (error) {
    spool.discard();
    throw error;
  } finally {
    closeSync(fd);
  }
}

/**
 * A log redacted into the spool (`log` null when every line came out as it went in: the original goes in), in
 * one decode; `withRebuild`: with what the doctor finds reading it (`RedactLogOptions.rebuild`).
 */
async function rewriteLog(
  f: PlannedFile,
  compressed: boolean,
  o: StageOptions,
  withRebuild: boolean,
  ahead?: ReadAhead,
): Promise<{ log: RewrittenLog | null; rebuilt: RebuiltLog | null }> {
  const r = o.redactor;
  const counted = { ...r.replaced };
  const attempt = async (lazy: boolean) => {
    const writer = o.spool?.begin() ?? null;
    try {
      const res = await redactLog(f.source, writer, {
        compressed,
        redactor: r,
        dropText: o.dropText,
        rebuild: withRebuild ? new DetailsRebuild() : undefined,
        lazy,
        onDecode: o.onDecode,
        // Read ahead only when small, so never lazy: its one read is taken whole (a lazy start never comes).
        ahead: lazy ? undefined : ahead,
      });
      if (res.again || !res.changed) {
        o.spool?.discard();
        return { res, log: null };
      }
      if (!o.spool) return { res, log: previewRewritten(f) };
      return { res, log: { range: o.spool.finish(), details: res.details, source: f.source, size: f.size } };
    } catch (error) {
      o.spool?.discard();
      throw error;
    }
  };
  let done = await attempt(!o.dropText && f.size > LAZY_FROM_BYTES);
  if (done.res.again) {
    // Its first change could not be started from a frame boundary: read again, written from the start (what
    // the first read counted is counted again).
    for (const k of Object.keys(r.replaced)) delete r.replaced[k as keyof typeof r.replaced];
    Object.assign(r.replaced, counted);
    done = await attempt(false);
  }
  return { log: done.log, rebuilt: done.res.rebuilt };
}

/**
 * Redacts one chat's current log while the doctor reads it (`SummarizeOptions.rebuild`): one decode gives the
 * doctor its details and problems and the bundle its redacted log, kept in `o.prestaged` for `stageFiles`.
 * `ahead`: the log as read ahead while the logs before it were redacted (`lib/bundle/read-ahead.ts`).
 * Returns null when it is not to be staged now (a system error: the doctor and `stageFiles` meet it as usual).
 */
export async function stageLogEarly(f: PlannedFile, o: StageOptions, ahead?: ReadAhead): Promise<RebuiltLog | null> {
  const r = o.redactor;
  // Named by its bundle path when it is staged (`stageOne`): naming it now would count its path's values twice.
  r.file = `\u0000early:${f.source}`;
  try {
    const { log, rebuilt } = await rewriteLog(f, f.compressed ?? true, o, true, ahead);
    if (!rebuilt) return null;
    o.prestaged?.set(f.source, log);
    o.onBytes?.(f.size);
    return rebuilt;
  } catch (error) {
    if (isSystemError(error)) return null;
    throw error;
  }
}

/** A checkpoint redacted; when its log was rewritten, its offset, tail hash and details are made to fit it. */
async function stageCheckpoint(
  f: PlannedFile,
  original: Buffer,
  r: Redactor,
  rewritten: Map<string, RewrittenLog>,
): Promise<Buffer> {
  const parsed = await parseCheckpoint(original.toString("utf8"));
  const dir = f.source.slice(0, -"session.cache.json".length);
  const staged = f.newestLog ? rewritten.get(join(dir, f.newestLog)) : undefined;
  if (!("checkpoint" in parsed) || !staged || parsed.checkpoint.log.name !== f.newestLog)
    return redactJsonFile(original, r);
  const cp = parsed.checkpoint;
  const identity = r.redactJson(cp.identity);
  if (!fitsLog(cp, staged)) {
    // A checkpoint that did not fit its log must not fit the rewritten one either, for the same reason: one
    // ahead of its log stays as far ahead, one whose tail hash did not match still does not (its details,
    // which nobody serves, stay as they were).
    const ahead = cp.log.bytes - staged.size;
    const bytes = ahead > 0 ? staged.range.size + ahead : staged.range.size;
    const tailSha256 = cp.log.tailSha256 === staged.range.tailSha256 ? flipHex(cp.log.tailSha256) : cp.log.tailSha256;
    const kept = { ...(r.redactJson(cp) as typeof cp), identity, log: { name: cp.log.name, bytes, tailSha256 } };
    return Buffer.from(`${JSON.stringify(kept, null, 2)}\n`);
  }
  const next = {
    ...cp,
    identity,
    log: { name: cp.log.name, bytes: staged.range.size, tailSha256: staged.range.tailSha256 },
    details: checkpointDetails(staged.details),
  };
  return Buffer.from(`${JSON.stringify(next, null, 2)}\n`);
}

/** True when checkpoint `cp` fitted the original log (its offset within it, its tail hash matching). */
function fitsLog(cp: Checkpoint, log: RewrittenLog): boolean {
  if (cp.log.bytes > log.size) return false;
  try {
    return hashLogTail(log.source, cp.log.bytes) === cp.log.tailSha256;
  } catch {
    return false;
  }
}

/** A hex digest with its first digit changed: a tail hash that matches nothing the rewritten log holds. */
function flipHex(hex: string): string {
  return `${hex[0] === "0" ? "1" : "0"}${hex.slice(1)}`;
}

/**
 * A memory file larger than the home allows is a problem the reader names before it reads a word of it;
 * one that redaction made short enough is padded with spaces at its end to its former size, so it stays that
 * problem (its text, trimmed at its ends, is unchanged).
 */
function keepTooLarge(original: Buffer, data: Buffer, limit: number | undefined): Buffer {
  if (limit === undefined || original.length <= limit || data.length > limit) return data;
  return Buffer.concat([data, Buffer.alloc(original.length - data.length, " ")]);
}
