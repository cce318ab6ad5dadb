import { type BigIntStats, promises as fsp, statSync } from "node:fs";
import { join } from "node:path";
import { OdaError } from "../errors";
import { isInside, isTempFileName, realRootOf, removeLeftoverTemps, resolveInside, resolveInsideReal } from "../fs";
import { StatCache, settleClock } from "./file-cache";
import { countCodePoints, estimateTokens, type MemoryAuthor, type MemoryFields, type VersionSource } from "./format";
import {
  type CurrentState,
  currentStateOf,
  listVersionNames,
  parseVersionName,
  readDeletedMark,
  readRegularFile,
  readStateRecord,
  type VersionName,
} from "./history";
import type { Limits } from "./limits";
import { MESSAGES } from "./messages";
import { isMemoryId, isWorkspaceKey } from "./names";
import { decodeUtf8, type MemoryParse, type MemoryProblem, type ParsedMemory, parseMemorySource } from "./parse";
import { historySetSegments, placeMemory, relativeToHome, setSegments } from "./paths";
import { cachedMemoryParse, countsOf, mapPool, type ParsedFile, readMemoryFile, sha256Hex } from "./read-file";
import { readSettings } from "./settings";

/** One memory of a set, as the list shows it. */
export interface MemorySummary {
  id: string;
  workspace: string | null;
  title: string;
  text: string;
  enabled: boolean;
  /** Who saved it: `ai` shows as "saved by the agent". */
  author: MemoryAuthor;
  sessionId?: string;
  created?: string;
  updated?: string;
  titleChars: number;
  textChars: number;
  bytes: number;
  tokens: number;
}

/** A memory file with a problem. `path` is relative to the Oda home. */
export interface SetProblem {
  id: string;
  path: string;
  message: string;
  /** The file's line the YAML parser named, when it named one. */
  line?: number;
}

/** One set read from disk. */
export interface MemorySet {
  workspace: string | null;
  /** Problem-free memories, in payload order (created, then id). */
  memories: MemorySummary[];
  problems: SetProblem[];
  /** Names in the set folder that are not memories (temp files of interrupted saves excluded). */
  ignored: string[];
}

/** Payload order: by `created` (files without it last), then by id. */
export function comparePayloadOrder(a: { id: string; created?: string }, b: { id: string; created?: string }): number {
  const ta = a.created ? Date.parse(a.created) : Number.POSITIVE_INFINITY;
  const tb = b.created ? Date.parse(b.created) : Number.POSITIVE_INFINITY;
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function summarise(id: string, workspace: string | null, read: ParsedFile & { parse: ParsedMemory }): MemorySummary {
  const parse = read.parse;
  const f = parse.fields;
  const counts = countsOf(parse);
  const s: MemorySummary = {
    id,
    workspace,
    title: parse.title,
    text: parse.text,
    enabled: f.enabled,
    author: f.source,
    titleChars: counts.titleChars,
    textChars: counts.textChars,
    bytes: read.size,
    tokens: counts.tokens,
  };
  if (f.sessionId !== undefined) s.sessionId = f.sessionId;
  if (f.created !== undefined) s.created = f.created;
  if (f.updated !== undefined) s.updated = f.updated;
  return s;
}

/** The files of one set folder as read (or as cached); `reads` in no particular order. */
export interface SetFiles {
  /** Relative to the home. */
  segments: string[];
  reads: { name: string; read: ParsedFile }[];
  ignored: string[];
  /** True when a memory entry is a symbolic link (its file may live outside the set folder). */
  links: boolean;
}

/** A set folder's entries as one readdir gave them. */
interface FolderEntries {
  ids: { name: string; link: boolean }[];
  ignored: string[];
  temps: boolean;
}

/**
 * Set folder listings, by the folder's stat: a folder's mtime and ctime move
 * whenever an entry is added, removed or renamed, so an unchanged (and
 * settled, see `file-cache.ts`) folder stat stands for an unchanged listing.
 * Each file's own stat is still checked on every read.
 */
const listings = new StatCache<FolderEntries>(5_000);

async function folderEntries(folder: string, segments: string[]): Promise<FolderEntries | null> {
  const startedAt = settleClock.now();
  let st: BigIntStats | undefined;
  try {
    st = statSync(folder, { bigint: true, throwIfNoEntry: false });
  } catch {
    st = undefined; // readdir below reports why
  }
  const hit = st?.isDirectory() ? listings.get(folder, st) : undefined;
  if (hit) return hit;
  let dirents: import("node:fs").Dirent[];
  try {
    dirents = await fsp.readdir(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    throw new OdaError("io", `The memory folder ${relativeToHome(...segments)} cannot be read (${code}).`);
  }
  const entries: FolderEntries = { ids: [], ignored: [], temps: false };
  for (const e of dirents) {
    if (isMemoryId(e.name)) entries.ids.push({ name: e.name, link: e.isSymbolicLink() });
    else if (isTempFileName(e.name)) entries.temps = true;
    else entries.ignored.push(e.name);
  }
  if (st?.isDirectory()) listings.set(folder, st, startedAt, entries);
  return entries;
}

/**
 * Reads a set folder's memory files: the folder is validated once (against
 * `realHome` when the caller already resolved it in this operation; not at
 * all when `folderInside` says the caller proved it), its listing comes from
 * a cache checked by the folder's stat, cached parses are taken after one
 * `lstat` each, and only the misses (new or changed files; symlinks, whose
 * target is checked every time) are opened and parsed, in parallel with a
 * bounded pool. Leftover temp files are skipped (those older than a minute
 * removed). A missing folder is an empty set.
 */
export async function readSetFiles(
  home: string,
  workspace: string | null,
  limits: Limits,
  realHome?: string | Promise<string>,
  folderInside = false,
): Promise<SetFiles> {
  const segments = setSegments(workspace);
  const real = realHome ?? realRootOf(home);
  const folder = folderInside ? join(home, ...segments) : await resolveInsideReal(home, real, ...segments);
  const result: SetFiles = { segments, reads: [], ignored: [], links: false };
  const entries = await folderEntries(folder, segments);
  if (!entries) return result;
  result.ignored = [...entries.ignored];
  result.links = entries.ids.some((e) => e.link);
  const misses: { name: string; link: boolean }[] = [];
  let stats = 0;
  for (const e of entries.ids) {
    if (++stats % 1024 === 0) await new Promise(setImmediate); // a huge set does not hold the event loop
    const cached = e.link ? undefined : cachedMemoryParse(join(folder, e.name), limits);
    if (cached) result.reads.push({ name: e.name, read: cached });
    else misses.push(e);
  }
  const missed = await mapPool(misses, 32, async ({ name, link }) => {
    const path = join(folder, name);
    if (link) {
      const target = await fsp.realpath(path).catch(() => null);
      if (target === null || !isInside(await real, target)) {
        const parse: MemoryProblem = { ok: false, message: MESSAGES.cannotRead("it links outside the Oda home.") };
        return { name, read: { parse, size: 0, mtimeMs: 0 } };
      }
      const cached = cachedMemoryParse(path, limits, true);
      if (cached) return { name, read: cached };
    }
    return { name, read: await readMemoryFile(path, limits, !link) };
  });
  for (const m of missed) if (m.read) result.reads.push({ name: m.name, read: m.read }); // null: removed meanwhile
  if (entries.temps) void removeLeftoverTemps(folder);
  return result;
}

/**
 * Lists a set (null = global): its memories, its problem files with the exact
 * messages, and the names that are not memories. Files unchanged since they
 * were last read come from the parse cache (see {@link readSetFiles}).
 * Symlinked entries are followed only when they stay inside the home.
 * Leftover temp files are ignored (and those older than a minute removed).
 */
export async function listSet(
  home: string,
  workspace: string | null,
  options: { limits?: Limits } = {},
): Promise<MemorySet> {
  const limits = options.limits ?? (await readSettings(home)).limits;
  const files = await readSetFiles(home, workspace, limits);
  const result: MemorySet = { workspace, memories: [], problems: [], ignored: files.ignored };
  for (const { name, read } of files.reads) {
    if (read.parse.ok) result.memories.push(summarise(name, workspace, read as ParsedFile & { parse: ParsedMemory }));
    else {
      const p: SetProblem = { id: name, path: relativeToHome(...files.segments, name), message: read.parse.message };
      if (read.parse.line !== undefined) p.line = read.parse.line;
      result.problems.push(p);
    }
  }
  result.memories.sort(comparePayloadOrder);
  result.problems.sort((a, b) => (a.id < b.id ? -1 : 1));
  result.ignored.sort();
  return result;
}

/**
 * The workspace set folders, sorted by key. `inside` is true for a plain
 * folder: the parent was proven inside the home and the entry is no symlink,
 * so it needs no realpath of its own; a symlinked one must be resolved.
 */
export async function workspaceFolders(
  home: string,
  realHome?: string | Promise<string>,
): Promise<{ key: string; inside: boolean }[]> {
  const folder = await resolveInsideReal(home, realHome ?? realRootOf(home), "memory", "workspaces");
  try {
    const entries = await fsp.readdir(folder, { withFileTypes: true });
    return entries
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && isWorkspaceKey(e.name))
      .map((e) => ({ key: e.name, inside: e.isDirectory() }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  } catch {
    return [];
  }
}

/** The workspace keys that have a set folder, sorted. Folders with names that are not keys are skipped. */
export async function listWorkspaces(home: string): Promise<string[]> {
  return (await workspaceFolders(home)).map((w) => w.key);
}

/** One memory read in full. A file with a problem has `ok: false` and its problem. */
/** What every memory detail holds, whether the file reads or not. */
export interface MemoryDetailBase {
  id: string;
  workspace: string | null;
  /** Relative to the home. */
  path: string;
  /** The file's text (null when it is not UTF-8 or could not be read). */
  raw: string | null;
  /** SHA-256 of the file's bytes: pass it back as `expectedSha256`. */
  sha256: string;
  bytes: number;
  state: CurrentState;
}

export type MemoryDetail = MemoryDetailBase &
  (
    | {
        ok: true;
        fields: MemoryFields;
        title: string;
        text: string;
        enabled: boolean;
        titleChars: number;
        textChars: number;
        tokens: number;
      }
    | { ok: false; problem: { message: string; line?: number } }
  );

/** Reads one memory; null when its file does not exist. Names are checked before any file call. */
export async function findMemory(
  home: string,
  workspace: string | null,
  id: string,
  limits?: Limits,
): Promise<MemoryDetail | null> {
  const place = await placeMemory(home, workspace, id);
  const lim = limits ?? (await readSettings(home)).limits;
  const [read, record] = await Promise.all([readMemoryFile(place.file, lim, false), readStateRecord(place.history)]);
  if (!read) return null;
  const bytes = read.bytes ?? new Uint8Array();
  const sha256 = sha256Hex(bytes);
  const base = {
    id,
    workspace,
    path: place.relativePath,
    raw: read.bytes ? decodeUtf8(read.bytes) : null,
    sha256,
    bytes: read.size,
    state: currentStateOf(record, sha256, read.mtimeMs),
  };
  return describeMemory(base, read.parse);
}

/** What the file holds, described: its fields and counts, or its one problem. */
export function describeMemory(base: MemoryDetailBase, p: MemoryParse): MemoryDetail {
  if (!p.ok)
    return {
      ...base,
      ok: false,
      problem: p.line === undefined ? { message: p.message } : { message: p.message, line: p.line },
    };
  return {
    ...base,
    ok: true,
    fields: p.fields,
    title: p.title,
    text: p.text,
    enabled: p.fields.enabled,
    titleChars: countCodePoints(p.title),
    textChars: countCodePoints(p.text),
    tokens: estimateTokens(p.text),
  };
}

/** Reads one memory, or refuses with `No memory with the id "<id>" exists in this chat's memory. …` */
export async function readMemory(home: string, workspace: string | null, id: string): Promise<MemoryDetail> {
  const found = await findMemory(home, workspace, id);
  if (!found) throw new OdaError("not_found", MESSAGES.noMemory(id));
  return found;
}

/** One saved version of a memory. */
export interface VersionInfo extends VersionName {
  raw: string | null;
  ok: boolean;
  title?: string;
  text?: string;
  enabled?: boolean;
  problem?: string;
}

async function readVersionFile(history: string, v: VersionName): Promise<VersionInfo | null> {
  const bytes = await readRegularFile(join(history, v.name)).catch(() => null);
  if (!bytes) return null;
  const raw = decodeUtf8(bytes);
  const p = raw === null ? null : parseMemorySource(raw);
  if (p?.ok) return { ...v, raw, ok: true, title: p.title, text: p.text, enabled: p.fields.enabled };
  return {
    ...v,
    raw,
    ok: false,
    problem: p ? (p as { message: string }).message : MESSAGES.cannotRead("it is not valid UTF-8 text."),
  };
}

/** A memory's versions, newest first (also for a deleted memory). */
export async function listVersions(home: string, workspace: string | null, id: string): Promise<VersionInfo[]> {
  const place = await placeMemory(home, workspace, id);
  const names = await listVersionNames(place.history);
  return (await Promise.all(names.map((v) => readVersionFile(place.history, v)))).filter(
    (v): v is VersionInfo => v !== null,
  );
}

/** One version, or refuses with `No saved version "<name>" of this memory exists.` */
export async function readVersion(
  home: string,
  workspace: string | null,
  id: string,
  name: string,
): Promise<VersionInfo> {
  const place = await placeMemory(home, workspace, id);
  const v = typeof name === "string" ? parseVersionName(name) : null;
  const info = v ? await readVersionFile(place.history, v) : null;
  if (!info) throw new OdaError("not_found", MESSAGES.noVersion(String(name)));
  return info;
}

/** A memory under Recently deleted. */
export interface DeletedMemory {
  id: string;
  workspace: string | null;
  title: string;
  deletedAt: string;
  /** The text of its newest version (kept when it was deleted). */
  text: string | null;
  versions: number;
}

/** The memories of a set that are deleted and not back: newest deletion first. */
export async function listDeleted(home: string, workspace: string | null): Promise<DeletedMemory[]> {
  const segments = historySetSegments(workspace);
  const folder = await resolveInside(home, ...segments);
  const setFolder = await resolveInside(home, ...setSegments(workspace));
  const ids = (await fsp.readdir(folder).catch(() => [] as string[])).filter(isMemoryId);
  const found = await mapPool(ids, 16, async (id): Promise<DeletedMemory | null> => {
    const mark = await readDeletedMark(join(folder, id));
    if (!mark) return null;
    const live = await fsp.lstat(join(setFolder, id)).then(
      () => true,
      () => false,
    );
    if (live) return null;
    const names = await listVersionNames(join(folder, id));
    const newest = names[0] ? await readVersionFile(join(folder, id), names[0]) : null;
    return {
      id,
      workspace,
      title: mark.title,
      deletedAt: mark.deletedAt,
      text: newest?.text ?? null,
      versions: names.length,
    };
  });
  return found.filter((d): d is DeletedMemory => d !== null).sort((a, b) => (a.deletedAt < b.deletedAt ? 1 : -1));
}

export type { VersionSource };
