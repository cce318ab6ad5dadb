import { type BigIntStats, promises as fsp, lstatSync } from "node:fs";
import { join } from "node:path";
import { isTempFileName, openRegular, type StagedWrite, settleStaged, stageFile, writeFileAtomic } from "../fs";
import { StatCache, settleClock } from "./file-cache";
import { VERSION_SOURCES, type VersionSource } from "./format";
import { decodeUtf8, type MemoryParse, parseMemorySource } from "./parse";

/** `state.json`: where the current file's text came from. */
export interface SavedState {
  sha256: string;
  savedAt: string;
  source: VersionSource;
}

/** `deleted.json`: present while the memory is deleted. */
export interface DeletedMark {
  deletedAt: string;
  title: string;
}

/** Where the current state of a memory came from, and when. */
export interface CurrentState {
  source: VersionSource;
  savedAt: string;
}

const VERSION_NAME = /^(\d{8}T\d{9}Z)-(chat|settings|restore|undo|external|found)(?:-([1-9]\d*))?$/;

/** A version's name, taken apart. */
export interface VersionName {
  name: string;
  /** The moment as ISO 8601. */
  moment: string;
  source: VersionSource;
  /** 1 for the first version of a moment, 2 for `-2`, … */
  seq: number;
}

/** `2026-11-29T18:24:08.123Z` → `20261129T182408123Z`. */
export function compactMoment(iso: string): string {
  return new Date(iso).toISOString().replace(/[-:.]/g, "");
}

/** Reads a version name; null for anything else (state.json, temp files, strays). */
export function parseVersionName(name: string): VersionName | null {
  const m = VERSION_NAME.exec(name);
  if (!m) return null;
  const c = m[1] as string;
  const moment = `${c.slice(0, 4)}-${c.slice(4, 6)}-${c.slice(6, 8)}T${c.slice(9, 11)}:${c.slice(11, 13)}:${c.slice(13, 15)}.${c.slice(15, 18)}Z`;
  const seq = m[3] ? Number(m[3]) : 1;
  if (seq === 1 && m[3]) return null;
  return { name, moment, source: m[2] as VersionSource, seq };
}

/** Newest first: by moment, then by the number added on a shared moment. */
export function compareNewestFirst(a: VersionName, b: VersionName): number {
  if (a.moment !== b.moment) return a.moment < b.moment ? 1 : -1;
  return b.seq - a.seq;
}

/** The version names in a history folder, newest first. */
export async function listVersionNames(history: string): Promise<VersionName[]> {
  let names: string[];
  try {
    names = await fsp.readdir(history);
  } catch {
    return [];
  }
  return names
    .map(parseVersionName)
    .filter((v): v is VersionName => v !== null)
    .sort(compareNewestFirst);
}

/**
 * Reads a file of the Oda home whole, opened with `openRegular`: a FIFO,
 * socket or device named like a memory, a version or `state.json` is refused
 * at once (OdaError "unusable") instead of blocking the read forever. A
 * symlink is refused too unless `follow` (a memory file proven to stay inside
 * the home may be one).
 */
export async function readRegularFile(path: string, follow = false): Promise<Buffer> {
  const { handle } = await openRegular(path, { noFollow: !follow });
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse((await readRegularFile(path)).toString("utf8"));
  } catch {
    return null;
  }
}

/**
 * The intent of a change (`state.next.json`): the `state.json` a change is
 * about to write, made durable before the memory file is replaced. A kill
 * between the file's rename and `state.json` then still tells where the
 * file's bytes came from: when they match the intent's sha256 the state is
 * the intent's; otherwise the intent is void (the change never landed).
 */
export const INTENT_NAME = "state.next.json";

/** What the history says about the current file: `state.json` and a pending intent. */
export interface StateRecord {
  saved: SavedState | null;
  intent: SavedState | null;
}

/** Reads `state.json` and `state.next.json`. */
export async function readStateRecord(history: string): Promise<StateRecord> {
  const [saved, intent] = await Promise.all([readSavedState(history), readSavedState(history, INTENT_NAME)]);
  return { saved, intent };
}

/** Reads `state.json` (or the intent); null when absent or unusable. */
export async function readSavedState(history: string, name = "state.json"): Promise<SavedState | null> {
  // A path under the user's Oda home, never a file of this project: not for Next's output tracing.
  const v = (await readJson(join(/*turbopackIgnore: true*/ history, name))) as Partial<SavedState> | null;
  if (
    !v ||
    typeof v.sha256 !== "string" ||
    typeof v.savedAt !== "string" ||
    !VERSION_SOURCES.includes(v.source as VersionSource)
  ) {
    return null;
  }
  return { sha256: v.sha256, savedAt: v.savedAt, source: v.source as VersionSource };
}

/** Reads `deleted.json`; null when the memory is not marked deleted. */
export async function readDeletedMark(history: string): Promise<DeletedMark | null> {
  const v = (await readJson(join(history, "deleted.json"))) as Partial<DeletedMark> | null;
  if (!v || typeof v.deletedAt !== "string") return null;
  return { deletedAt: v.deletedAt, title: typeof v.title === "string" ? v.title : "" };
}

/**
 * The current state of a live file: the intent's or `state.json`'s when its
 * sha256 matches the file's bytes; `external` at the file's mtime when
 * neither does; `found` at the file's mtime when there is no `state.json`.
 */
export function currentStateOf(record: StateRecord, sha256: string, mtimeMs: number): CurrentState {
  const { saved, intent } = record;
  if (intent && intent.sha256 === sha256) return { source: intent.source, savedAt: intent.savedAt };
  if (saved && saved.sha256 === sha256) return { source: saved.source, savedAt: saved.savedAt };
  return { source: saved ? "external" : "found", savedAt: new Date(Math.floor(mtimeMs)).toISOString() };
}

/** The content that makes two versions "the same text": title, text and enabled (raw bytes for a file with a problem). */
export function contentKey(raw: string | null, parse?: MemoryParse): string {
  if (raw === null) return "bytes:?";
  const p = parse ?? parseMemorySource(raw);
  return p.ok ? JSON.stringify([p.title, p.text, p.fields.enabled]) : `raw:${raw}`;
}

/**
 * Content keys of version files, by stat (see `file-cache.ts`): a version is
 * written once and never changed by the app, so keeping a new version
 * compares it with the older ones from one `lstat` each instead of reading
 * and parsing each of them on every save.
 */
const versionKeyCache = new StatCache<string>(50_000);

async function versionKeyOf(path: string): Promise<string> {
  const startedAt = settleClock.now();
  let st: BigIntStats | undefined;
  try {
    st = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    st = undefined;
  }
  const hit = st?.isFile() ? versionKeyCache.get(path, st) : undefined;
  if (hit !== undefined) return hit;
  const bytes = await readRegularFile(path).catch(() => new Uint8Array());
  const key = contentKey(decodeUtf8(bytes));
  if (st?.isFile() && bytes.length === Number(st.size)) versionKeyCache.set(path, st, startedAt, key);
  return key;
}

/** A version prepared by {@link prepareVersion}: written and fsynced under a temporary name. */
export interface PreparedVersion extends StagedWrite {
  name: string;
  /** Older versions to remove once the new one is durable: same content, or past `versionsKept`. */
  drop: string[];
}

/**
 * Prepares keeping `bytes` (a past state of the memory file) as a version
 * named from the state's moment and source: written and fsynced under a
 * temporary name, while the older versions' contents are compared with it.
 * The caller renames it into place (`commit`) and fsyncs the history folder
 * before it replaces the file the version preserves, and only then removes
 * `drop`. `existing` is the folder's listing when the caller already has it
 * (one listing per save).
 */
export async function prepareVersion(
  history: string,
  bytes: Uint8Array,
  state: CurrentState,
  versionsKept: number,
  existing?: VersionName[],
  parse?: MemoryParse,
): Promise<PreparedVersion> {
  const names = existing ?? (await listVersionNames(history));
  const name = nextVersionName(names, state);
  // the older versions' contents are compared while the new one is written
  const [staged, keys] = await settleStaged<[StagedWrite, string[]]>([
    stageFile(join(history, name), bytes),
    versionKeys(history, names),
  ]);
  const key = contentKey(decodeUtf8(bytes), parse?.ok ? parse : undefined);
  return { ...staged, name, drop: versionsToDrop(names, keys, name, key, versionsKept) };
}

/** The name a version of `state` gets among `names`: its moment and source, `-2`, `-3`, … on a shared moment. */
export function nextVersionName(names: readonly VersionName[], state: CurrentState): string {
  const moment = compactMoment(state.savedAt);
  const sameMoment = names.filter((v) => compactMoment(v.moment) === moment);
  const seq = sameMoment.length ? Math.max(...sameMoment.map((v) => v.seq)) + 1 : 1;
  return `${moment}-${state.source}${seq > 1 ? `-${seq}` : ""}`;
}

/** Older versions a new one (`name`, content `key`) makes redundant: same content, or past `versionsKept`. */
export function versionsToDrop(
  names: readonly VersionName[],
  keys: readonly string[],
  name: string,
  key: string,
  versionsKept: number,
): string[] {
  const drop = new Set(names.filter((_, i) => keys[i] === key).map((v) => v.name));
  const kept = [parseVersionName(name) as VersionName, ...names.filter((v) => !drop.has(v.name))].sort(
    compareNewestFirst,
  );
  for (const v of kept.slice(versionsKept)) drop.add(v.name);
  return [...drop];
}

/** Content keys of versions (see {@link versionKeyOf}). */
export function versionKeys(history: string, names: readonly VersionName[]): Promise<string[]> {
  return Promise.all(names.map((v) => versionKeyOf(join(history, v.name))));
}

/** Removes versions (no error for one already gone). */
export async function removeVersions(history: string, names: readonly string[]): Promise<void> {
  await Promise.all(names.map((n) => fsp.unlink(join(history, n)).catch(() => undefined)));
}

/** `state.json` for the bytes about to be written, staged (see {@link stageFile}). */
export function stageSavedState(history: string, state: SavedState): Promise<StagedWrite> {
  return stageFile(join(history, "state.json"), `${JSON.stringify(state)}\n`);
}

/** The intent (`state.next.json`, see {@link INTENT_NAME}), staged. */
export function stageIntent(history: string, state: SavedState): Promise<StagedWrite> {
  return stageFile(join(history, INTENT_NAME), `${JSON.stringify(state)}\n`);
}

/** `deleted.json`, staged (see {@link stageFile}). */
export function stageDeletedMark(history: string, mark: DeletedMark): Promise<StagedWrite> {
  return stageFile(join(history, "deleted.json"), `${JSON.stringify(mark)}\n`);
}

/** Writes `state.json` for the bytes just written. */
export async function writeSavedState(history: string, state: SavedState): Promise<void> {
  await writeFileAtomic(join(history, "state.json"), `${JSON.stringify(state)}\n`);
}

/** Removes `deleted.json` (no error when absent). */
export async function removeDeletedMark(history: string): Promise<void> {
  await fsp.unlink(join(history, "deleted.json")).catch(() => undefined);
}

/** True for names in a history folder that are leftovers of interrupted saves. */
export { isTempFileName };
