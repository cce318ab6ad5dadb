import { promises as fsp } from "node:fs";
import { join } from "node:path";
import { OdaError } from "../errors";
import { fsyncFolder, type HeldLockFile, resolveInside, type StagedWrite, settleStaged, stageFile } from "../fs";
import { describeMemory, type MemoryDetail } from "./details";
import type { VersionSource } from "./format";
import {
  type CurrentState,
  currentStateOf,
  INTENT_NAME,
  type PreparedVersion,
  prepareVersion,
  readRegularFile,
  readStateRecord,
  removeDeletedMark,
  removeVersions,
  type StateRecord,
  stageDeletedMark,
  stageIntent,
  stageSavedState,
  type VersionName,
  writeSavedState,
} from "./history";
import type { Limits } from "./limits";
import { MESSAGES } from "./messages";
import { decodeUtf8, type MemoryParse, parseMemoryFile } from "./parse";
import { historySegments, type MemoryPlace, setSegments } from "./paths";
import { readMemoryFile, sha256Hex } from "./read-file";
import { replaceMemoryFile } from "./replace-file";

/**
 * A memory change's write, under the home's memory lock (`mutate.ts` takes
 * it): the current state read (`loadCurrent`) and the new state written in the
 * contract's order (`commit`). A module of its own so that finishing an
 * interrupted bulk change (`bulk-journal.ts`), which `mutate.ts` runs when it
 * takes the lock, writes through it without importing `mutate.ts`.
 */

/** Options every change takes. */
export interface ChangeOptions {
  /**
   * Where the change comes from: `settings` (the dashboard and the CLI, the
   * default) or `chat` (Oda saving from a chat; used by the demo generator).
   */
  source?: "settings" | "chat";
  /** The chat a `chat` change came from: written as the file's `sessionId`. */
  sessionId?: string;
  /** SHA-256 of the file as the caller last saw it; a mismatch refuses the change and writes nothing. */
  expectedSha256?: string;
  /** The clock (tests force shared moments with it). */
  now?: () => Date;
}

/** What a change did. `changed: false` comes with the note saying why nothing was saved. */
export interface ChangeResult {
  changed: boolean;
  message?: string;
  /** The memory after the change (null once deleted). */
  memory: MemoryDetail | null;
  /** The name of the version that keeps the replaced state, when one was kept. */
  keptVersion?: string;
}

export interface Current {
  bytes: Uint8Array;
  sha256: string;
  parse: MemoryParse;
  state: CurrentState;
}

/** The memory's file as it is now (null: absent), a killed change's intent settled first. */
export async function loadCurrent(place: MemoryPlace, limits: Limits): Promise<Current | null> {
  const [read, record] = await Promise.all([readMemoryFile(place.file, limits, false), readStateRecord(place.history)]);
  if (!read) return null;
  let bytes = read.bytes;
  if (!bytes) {
    // too large to parse, or unreadable: keep its bytes if they can be read at all
    bytes = await readRegularFile(place.file, true).catch(() => null);
    if (!bytes)
      throw new OdaError(
        "unusable",
        MESSAGES.couldNotChange("its file cannot be read, so it cannot be kept as a version."),
      );
  }
  const sha256 = sha256Hex(bytes);
  if (record.intent) await settleIntent(place, record, sha256);
  return { bytes, sha256, parse: read.parse, state: currentStateOf(record, sha256, read.mtimeMs) };
}

/**
 * Settles the intent a killed change left (under the lock): when the file
 * holds the intent's bytes, the intent becomes `state.json`; otherwise the
 * change never landed and the intent is void. Either way it goes, before
 * this change writes its own intent over it.
 */
async function settleIntent(place: MemoryPlace, record: StateRecord, sha256: string): Promise<void> {
  const { intent, saved } = record;
  if (intent && intent.sha256 === sha256 && saved?.sha256 !== sha256) await writeSavedState(place.history, intent);
  await unlinkQuietly(join(place.history, INTENT_NAME));
}

export interface Context {
  home: string;
  /** The home's real path, resolved once per change and used by every check inside it. */
  realHome: Promise<string>;
  place: MemoryPlace;
  limits: Limits;
  current: Current | null;
  now: string;
  options: ChangeOptions;
  lock: HeldLockFile;
}

/**
 * Creates a folder a save writes into. placeMemory proved it inside the home
 * moments ago under the memory's lock, so it is not resolved again first (a
 * swap in between is the same race as between any check and its use); only a
 * folder that mkdir had to create is checked again, as ensureFolderInside does.
 */
async function ensureFolder(home: string, path: string, segments: string[]): Promise<void> {
  const created = await fsp.mkdir(path, { recursive: true });
  if (created !== undefined) await resolveInside(home, ...segments);
}

/**
 * Writes the new state in the contract's order: the current state kept as a
 * version (durable first), then the file, then `state.json`. With `next`
 * null the memory is deleted: version and `deleted.json`, then the file
 * removed.
 *
 * Every write is atomic (temp file, fsync, rename, folder fsync). What is
 * saved against doing them one after another:
 * - The temporary files of the version, the new file and `state.json` are
 *   written and fsynced at once (they are invisible until renamed), so their
 *   three file fsyncs cost about one.
 * - The renames then go in order, each after the folder fsync the ordering
 *   needs: the version's (history folder) before the file is replaced, the
 *   file's (set folder) before `state.json` says it is current. So the two
 *   fsyncs of the history folder cannot be shared with each other; they are
 *   shared with what else lands there: the removal of `deleted.json` and of
 *   the versions the new one makes redundant (which may go only once the new
 *   version is durable) ride on the last one, and a delete's `deleted.json`
 *   on the version's.
 * A save thus waits for 4 flushes instead of 6.
 */
export async function commit(
  ctx: Context,
  next: string | null,
  source: VersionSource,
  title = "",
  versions?: VersionName[],
): Promise<ChangeResult> {
  const { place, current, limits, now, home } = ctx;
  // A save must never write a file that Oda would then refuse as too large.
  if (next !== null && Buffer.byteLength(next, "utf8") > limits.fileMaxBytes) {
    throw new OdaError("refused", MESSAGES.couldNotChange(MESSAGES.fileTooLarge(limits.fileMaxBytes)), {
      field: "text",
    });
  }
  await Promise.all([
    ensureFolder(home, place.folder, setSegments(place.workspace)),
    ensureFolder(home, place.history, historySegments(place.workspace, place.id)),
  ]);
  const prepareKept = () =>
    current
      ? prepareVersion(place.history, current.bytes, current.state, limits.versionsKept, versions, current.parse)
      : Promise.resolve(undefined);
  const expected = current?.sha256 ?? null;
  if (next === null) {
    const [kept, mark] = await settleStaged<[PreparedVersion | undefined, StagedWrite]>([
      prepareKept(),
      stageDeletedMark(place.history, { deletedAt: now, title }),
    ]);
    try {
      await ctx.lock.assertHeld();
      await kept?.commit();
      await mark.commit();
      await fsyncFolder(place.history);
      await replaceMemoryFile(place, null, expected, limits.versionsKept);
    } catch (error) {
      await Promise.all([kept?.discard(), mark.discard(), removeDeletedMark(place.history)]);
      throw error;
    }
    await Promise.all([
      unlinkQuietly(join(place.history, "state.json")),
      unlinkQuietly(join(place.history, INTENT_NAME)),
      removeVersions(place.history, kept?.drop ?? []),
    ]);
    return { changed: true, memory: null, keptVersion: kept?.name };
  }
  const bytes = Buffer.from(next, "utf8");
  const sha256 = sha256Hex(bytes);
  const saved = { sha256, savedAt: now, source };
  const [kept, file, state, intent] = await settleStaged<
    [PreparedVersion | undefined, StagedWrite, StagedWrite, StagedWrite]
  >([
    prepareKept(),
    stageFile(place.file, bytes),
    stageSavedState(place.history, saved),
    stageIntent(place.history, saved),
  ]);
  try {
    await ctx.lock.assertHeld();
    await kept?.commit();
    // the intent names the new bytes' source before they land, so a kill before state.json cannot mislabel them
    await intent.commit();
    await fsyncFolder(place.history); // the version is durable before the file it preserves is replaced
    await replaceMemoryFile(place, file, expected, limits.versionsKept); // fsyncs the set folder
  } catch (error) {
    await Promise.all([kept?.discard(), file.discard(), state.discard(), intent.discard()]);
    await unlinkQuietly(join(place.history, INTENT_NAME));
    throw error;
  }
  await removeDeletedMark(place.history);
  await state.commit();
  await unlinkQuietly(join(place.history, INTENT_NAME));
  await removeVersions(place.history, kept?.drop ?? []);
  await fsyncFolder(place.history);
  return {
    changed: true,
    memory: detailOf(place, bytes, sha256, { source, savedAt: now }, limits),
    keptVersion: kept?.name,
  };
}

async function unlinkQuietly(path: string): Promise<void> {
  await fsp.unlink(path).catch(() => undefined);
}

/** The detail of bytes just written, without reading them back. */
function detailOf(
  place: MemoryPlace,
  bytes: Uint8Array,
  sha256: string,
  state: CurrentState,
  limits: Limits,
): MemoryDetail {
  const base = {
    id: place.id,
    workspace: place.workspace,
    path: place.relativePath,
    raw: decodeUtf8(bytes),
    sha256,
    bytes: bytes.length,
    state,
  };
  return describeMemory(base, parseMemoryFile(bytes, limits));
}
