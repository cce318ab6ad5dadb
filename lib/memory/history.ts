import { promises as fsp } from "node:fs";
import { join } from "node:path";
import { isTempFileName, writeFileAtomic } from "../fs";
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

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await fsp.readFile(path, "utf8"));
  } catch {
    return null;
  }
}

/** Reads `state.json`; null when absent or unusable. */
export async function readSavedState(history: string): Promise<SavedState | null> {
  const v = (await readJson(join(history, "state.json"))) as Partial<SavedState> | null;
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
 * The current state of a live file: `state.json` when its sha256 matches the
 * file's bytes; `external` at the file's mtime when it does not; `found` at the
 * file's mtime when there is no `state.json`.
 */
export function currentStateOf(saved: SavedState | null, sha256: string, mtimeMs: number): CurrentState {
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
 * Keeps `bytes` (a past state of the memory file) as a version named from the
 * state's moment and source, durably, before the caller replaces the file.
 * Then removes older versions with the same content and all but the newest
 * `versionsKept`. Returns the new version's name.
 */
export async function keepVersion(
  history: string,
  bytes: Uint8Array,
  state: CurrentState,
  versionsKept: number,
): Promise<string> {
  const existing = await listVersionNames(history);
  const moment = compactMoment(state.savedAt);
  const sameMoment = existing.filter((v) => compactMoment(v.moment) === moment);
  const seq = sameMoment.length ? Math.max(...sameMoment.map((v) => v.seq)) + 1 : 1;
  const name = `${moment}-${state.source}${seq > 1 ? `-${seq}` : ""}`;
  // the older versions' contents are read while the new one is written
  const [keys] = await Promise.all([
    Promise.all(
      existing.map(async (v) =>
        contentKey(decodeUtf8(await fsp.readFile(join(history, v.name)).catch(() => new Uint8Array()))),
      ),
    ),
    writeFileAtomic(join(history, name), bytes),
  ]);
  const key = contentKey(decodeUtf8(bytes));
  const drop = new Set(existing.filter((_, i) => keys[i] === key).map((v) => v.name));
  const kept = [parseVersionName(name) as VersionName, ...existing.filter((v) => !drop.has(v.name))].sort(
    compareNewestFirst,
  );
  for (const v of kept.slice(versionsKept)) drop.add(v.name);
  // only after the new version is durable may older ones go
  await Promise.all([...drop].map((n) => fsp.unlink(join(history, n)).catch(() => undefined)));
  return name;
}

/** Writes `state.json` for the bytes just written. */
export async function writeSavedState(history: string, state: SavedState): Promise<void> {
  await writeFileAtomic(join(history, "state.json"), `${JSON.stringify(state)}\n`);
}

/** Writes `deleted.json`. */
export async function writeDeletedMark(history: string, mark: DeletedMark): Promise<void> {
  await writeFileAtomic(join(history, "deleted.json"), `${JSON.stringify(mark)}\n`);
}

/** Removes `deleted.json` (no error when absent). */
export async function removeDeletedMark(history: string): Promise<void> {
  await fsp.unlink(join(history, "deleted.json")).catch(() => undefined);
}

/** True for names in a history folder that are leftovers of interrupted saves. */
export { isTempFileName };
