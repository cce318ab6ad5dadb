import { promises as fsp } from "node:fs";
import { join } from "node:path";
import { isOdaError, OdaError } from "../errors";
import { fsyncFolder, resolveInside, type StagedWrite, settleStaged, stageFile } from "../fs";
import { checkTitleAndText, type VersionSource } from "./format";
import {
  type CurrentState,
  currentStateOf,
  type PreparedVersion,
  prepareVersion,
  readSavedState,
  removeDeletedMark,
  removeVersions,
  stageDeletedMark,
  stageSavedState,
  type VersionName,
} from "./history";
import type { Limits } from "./limits";
import { MESSAGES } from "./messages";
import { assertMemoryId, assertWorkspace } from "./names";
import { decodeUtf8, type MemoryParse, type ParsedMemory, parseMemoryFile } from "./parse";
import { historySegments, type MemoryPlace, placeMemory, setSegments } from "./paths";
import { readMemoryFile, sha256Hex } from "./read-file";
import { readSettings } from "./settings";
import { describeMemory, type MemoryDetail } from "./store";
/**
 * The machinery under every memory change: one change at a time per memory,
 * the current state read once, the optimistic-concurrency check, and the
 * write in the contract's order (`commit`). The operations themselves live in
 * `change.ts`.
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

const locks = new Map<string, Promise<unknown>>();

/** Serialises changes to one memory within this process. */
async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.catch(() => undefined);
  locks.set(key, settled);
  try {
    return await run;
  } finally {
    if (locks.get(key) === settled) locks.delete(key);
  }
}

async function loadCurrent(place: MemoryPlace, limits: Limits): Promise<Current | null> {
  const [read, saved] = await Promise.all([readMemoryFile(place.file, limits, false), readSavedState(place.history)]);
  if (!read) return null;
  let bytes = read.bytes;
  if (!bytes) {
    // too large to parse, or unreadable: keep its bytes if they can be read at all
    bytes = await fsp.readFile(place.file).catch(() => null);
    if (!bytes)
      throw new OdaError(
        "unusable",
        MESSAGES.couldNotChange("its file cannot be read, so it cannot be kept as a version."),
      );
  }
  const sha256 = sha256Hex(bytes);
  return { bytes, sha256, parse: read.parse, state: currentStateOf(saved, sha256, read.mtimeMs) };
}

export interface Context {
  home: string;
  place: MemoryPlace;
  limits: Limits;
  current: Current | null;
  now: string;
  options: ChangeOptions;
}

/** Checks names, reads settings and the current file under the lock, checks the caller's sha256, then runs `fn`. */
export async function mutate(
  home: string,
  workspace: string | null,
  id: string,
  options: ChangeOptions,
  fn: (ctx: Context) => Promise<ChangeResult>,
): Promise<ChangeResult> {
  assertWorkspace(workspace);
  assertMemoryId(id);
  try {
    const { limits } = await readSettings(home);
    const place = await placeMemory(home, workspace, id);
    return await withLock(place.history, async () => {
      const current = await loadCurrent(place, limits);
      if (options.expectedSha256 !== undefined) {
        if (!current) throw new OdaError("not_found", MESSAGES.noMemory(id));
        if (current.sha256 !== options.expectedSha256) throw new OdaError("conflict", MESSAGES.conflict);
      }
      const now = (options.now?.() ?? new Date()).toISOString();
      return fn({ home, place, limits, current, now, options });
    });
  } catch (error) {
    if (isOdaError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new OdaError(
      "io",
      MESSAGES.couldNotChange(code ? `the file system answered ${code}.` : "an unexpected error."),
      { cause: error },
    );
  }
}

export function requireLive(ctx: Context): Current & { parse: ParsedMemory } {
  const cur = ctx.current;
  if (!cur) throw new OdaError("not_found", MESSAGES.noMemory(ctx.place.id));
  if (!cur.parse.ok) throw new OdaError("refused", MESSAGES.hasProblem(cur.parse.message));
  return cur as Current & { parse: ParsedMemory };
}

export function refuseFields(title: string, text: string, limits: Limits): void {
  const first = checkTitleAndText(title, text, limits)[0];
  if (first) throw new OdaError("refused", first.message, { field: first.field });
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
  if (next === null) {
    const [kept, mark] = await settleStaged<[PreparedVersion | undefined, StagedWrite]>([
      prepareKept(),
      stageDeletedMark(place.history, { deletedAt: now, title }),
    ]);
    await kept?.commit().catch(async (e) => {
      await mark.discard();
      throw e;
    });
    await mark.commit();
    await fsyncFolder(place.history);
    await fsp.unlink(place.file).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== "ENOENT") throw e;
    });
    await fsyncFolder(place.folder);
    await Promise.all([
      fsp.unlink(join(place.history, "state.json")).catch(() => undefined),
      removeVersions(place.history, kept?.drop ?? []),
    ]);
    return { changed: true, memory: null, keptVersion: kept?.name };
  }
  const bytes = Buffer.from(next, "utf8");
  const sha256 = sha256Hex(bytes);
  const [kept, file, state] = await settleStaged<[PreparedVersion | undefined, StagedWrite, StagedWrite]>([
    prepareKept(),
    stageFile(place.file, bytes),
    stageSavedState(place.history, { sha256, savedAt: now, source }),
  ]);
  try {
    if (kept) {
      await kept.commit();
      await fsyncFolder(place.history); // the version is durable before the file it preserves is replaced
    }
    await file.commit();
    await fsyncFolder(place.folder); // the file is durable before state.json says it is current
  } catch (error) {
    await Promise.all([file.discard(), state.discard()]);
    throw error;
  }
  await removeDeletedMark(place.history);
  await state.commit();
  await removeVersions(place.history, kept?.drop ?? []);
  await fsyncFolder(place.history);
  return {
    changed: true,
    memory: detailOf(place, bytes, sha256, { source, savedAt: now }, limits),
    keptVersion: kept?.name,
  };
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
