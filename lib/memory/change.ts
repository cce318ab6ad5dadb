import { randomBytes } from "node:crypto";
import { promises as fsp } from "node:fs";
import { join } from "node:path";
import { isOdaError, OdaError } from "../errors";
import { fsyncFolder, resolveInside, type StagedWrite, settleStaged, stageFile } from "../fs";
import {
  checkTitleAndText,
  countCodePoints,
  estimateTokens,
  type MemoryFields,
  normaliseText,
  normaliseTitle,
  serialiseMemoryFile,
  type VersionSource,
} from "./format";
import {
  type CurrentState,
  currentStateOf,
  listVersionNames,
  type PreparedVersion,
  parseVersionName,
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
import { decodeUtf8, type MemoryParse, type ParsedMemory, parseMemoryFile, parseMemorySource } from "./parse";
import { historySegments, type MemoryPlace, placeMemory, setSegments } from "./paths";
import { checkTokenLimit } from "./payload";
import { readMemoryFile, sha256Hex } from "./read-file";
import { readSettings } from "./settings";
import { findMemory, type MemoryDetail } from "./store";

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

interface Current {
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

interface Context {
  home: string;
  place: MemoryPlace;
  limits: Limits;
  current: Current | null;
  now: string;
  options: ChangeOptions;
}

/** Checks names, reads settings and the current file under the lock, checks the caller's sha256, then runs `fn`. */
async function mutate(
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

function requireLive(ctx: Context): Current & { parse: ParsedMemory } {
  const cur = ctx.current;
  if (!cur) throw new OdaError("not_found", MESSAGES.noMemory(ctx.place.id));
  if (!cur.parse.ok) throw new OdaError("refused", MESSAGES.hasProblem(cur.parse.message));
  return cur as Current & { parse: ParsedMemory };
}

function refuseFields(title: string, text: string, limits: Limits): void {
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
async function commit(
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
  const p = parseMemoryFile(bytes, limits);
  const base = {
    id: place.id,
    workspace: place.workspace,
    path: place.relativePath,
    raw: decodeUtf8(bytes),
    sha256,
    bytes: bytes.length,
    state,
  };
  if (!p.ok) return { ...base, ok: false, problem: { message: p.message } };
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

const sourceOf = (o: ChangeOptions): VersionSource => o.source ?? "settings";

function withSession(fields: MemoryFields, o: ChangeOptions): MemoryFields {
  return o.sessionId !== undefined ? { ...fields, sessionId: o.sessionId } : fields;
}

/** Creates a memory (id random unless given). Refused over a limit. */
export async function createMemory(
  home: string,
  workspace: string | null,
  input: { title: string; text: string; enabled?: boolean },
  options: ChangeOptions & { id?: string } = {},
): Promise<ChangeResult> {
  assertWorkspace(workspace);
  const { limits } = await readSettings(home);
  refuseFields(input.title, input.text, limits);
  const id = options.id ?? (await freeId(home, workspace));
  return mutate(home, workspace, id, { ...options, expectedSha256: undefined }, async (ctx) => {
    if (ctx.current)
      throw new OdaError("refused", MESSAGES.couldNotChange(`a memory with the id "${id}" already exists.`));
    const title = normaliseTitle(input.title);
    const text = normaliseText(input.text);
    const enabled = input.enabled ?? true;
    if (enabled) await checkTokenLimit(home, workspace, id, { title, text, created: ctx.now }, ctx.limits);
    const fields = withSession(
      { title, enabled, source: options.source === "chat" ? "ai" : "user", created: ctx.now, updated: ctx.now },
      options,
    );
    return commit(ctx, serialiseMemoryFile(fields, text), sourceOf(options));
  });
}

async function freeId(home: string, workspace: string | null): Promise<string> {
  for (;;) {
    const id = randomBytes(4).toString("hex");
    const place = await placeMemory(home, workspace, id);
    const taken = await Promise.all(
      [fsp.lstat(place.file), fsp.lstat(place.history)].map((p) =>
        p.then(
          () => true,
          () => false,
        ),
      ),
    );
    if (!taken.some(Boolean)) return id;
  }
}

/** Changes a memory's title, text, or both. A change that changes nothing saves nothing and says so. */
export async function changeMemory(
  home: string,
  workspace: string | null,
  id: string,
  change: { title?: string; text?: string },
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  assertWorkspace(workspace);
  assertMemoryId(id);
  if (change.title === undefined && change.text === undefined) throw new OdaError("refused", MESSAGES.giveTitleOrText);
  return mutate(home, workspace, id, options, async (ctx) => {
    const cur = requireLive(ctx);
    const title = normaliseTitle(change.title ?? cur.parse.title);
    const text = normaliseText(change.text ?? cur.parse.text);
    refuseFields(title, text, ctx.limits);
    if (title === cur.parse.title && text === cur.parse.text) {
      return { changed: false, message: MESSAGES.unchanged, memory: await findMemory(home, workspace, id, ctx.limits) };
    }
    const f = cur.parse.fields;
    // A chat's payload can only grow if this memory's block grows (same place, same order).
    const grows =
      countCodePoints(title) + countCodePoints(text) >
      countCodePoints(cur.parse.title) + countCodePoints(cur.parse.text);
    if (f.enabled && (grows || f.created === undefined)) {
      await checkTokenLimit(home, workspace, id, { title, text, created: f.created }, ctx.limits);
    }
    return commit(
      ctx,
      serialiseMemoryFile(withSession({ ...f, title, updated: ctx.now }, options), text),
      sourceOf(options),
    );
  });
}

/** Turns a memory on (refused over a limit) or off (never refused). */
export async function setEnabled(
  home: string,
  workspace: string | null,
  id: string,
  enabled: boolean,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  return mutate(home, workspace, id, options, async (ctx) => {
    if (!enabled && ctx.current && !ctx.current.parse.ok) {
      // A file with a problem is never sent and never rewritten: it is as good as off already.
      return {
        changed: false,
        message: MESSAGES.alreadyOff,
        memory: await findMemory(home, workspace, id, ctx.limits),
      };
    }
    const cur = requireLive(ctx);
    const f = cur.parse.fields;
    if (f.enabled === enabled) {
      return {
        changed: false,
        message: enabled ? MESSAGES.alreadyOn : MESSAGES.alreadyOff,
        memory: await findMemory(home, workspace, id, ctx.limits),
      };
    }
    if (enabled) {
      refuseFields(cur.parse.title, cur.parse.text, ctx.limits);
      await checkTokenLimit(
        home,
        workspace,
        id,
        { title: cur.parse.title, text: cur.parse.text, created: f.created },
        ctx.limits,
      );
    }
    return commit(
      ctx,
      serialiseMemoryFile(withSession({ ...f, enabled, updated: ctx.now }, options), cur.parse.text),
      sourceOf(options),
    );
  });
}

/** Deletes a memory (never refused): keeps its state as a version, removes the file, marks it deleted. */
export async function deleteMemory(
  home: string,
  workspace: string | null,
  id: string,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  return mutate(home, workspace, id, options, async (ctx) => {
    if (!ctx.current) throw new OdaError("not_found", MESSAGES.noMemory(id));
    return commit(ctx, null, sourceOf(options), ctx.current.parse.ok ? ctx.current.parse.title : "");
  });
}

/** Writes a version's content back with source `restore` (or `undo`), keeping the current state as a version. */
async function writeBack(
  ctx: Context,
  raw: string,
  source: VersionSource,
  versions?: VersionName[],
): Promise<ChangeResult> {
  const parsed = parseMemorySource(raw);
  if (!parsed.ok) throw new OdaError("refused", MESSAGES.couldNotChange(parsed.message));
  refuseFields(parsed.title, parsed.text, ctx.limits);
  const cur = ctx.current;
  const f = parsed.fields;
  if (
    cur?.parse.ok &&
    cur.parse.title === parsed.title &&
    cur.parse.text === parsed.text &&
    cur.parse.fields.enabled === f.enabled
  ) {
    return {
      changed: false,
      message: MESSAGES.unchanged,
      memory: await findMemory(ctx.home, ctx.place.workspace, ctx.place.id, ctx.limits),
    };
  }
  if (f.enabled) {
    await checkTokenLimit(
      ctx.home,
      ctx.place.workspace,
      ctx.place.id,
      { title: parsed.title, text: parsed.text, created: f.created },
      ctx.limits,
    );
  }
  return commit(ctx, serialiseMemoryFile({ ...f, updated: ctx.now }, parsed.text), source, "", versions);
}

async function readVersionRaw(place: MemoryPlace, name: string): Promise<string> {
  const v = typeof name === "string" ? parseVersionName(name) : null;
  const bytes = v ? await fsp.readFile(join(place.history, v.name)).catch(() => null) : null;
  const raw = bytes ? decodeUtf8(bytes) : null;
  if (raw === null) throw new OdaError("not_found", MESSAGES.noVersion(String(name)));
  return raw;
}

/** Restores a version of a memory (live or deleted). Refused over a limit; the replaced state becomes a version. */
export async function restoreVersion(
  home: string,
  workspace: string | null,
  id: string,
  version: string,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  return mutate(home, workspace, id, options, async (ctx) =>
    writeBack(ctx, await readVersionRaw(ctx.place, version), "restore"),
  );
}

/** Restores a deleted memory from its newest version. */
export async function restoreDeleted(
  home: string,
  workspace: string | null,
  id: string,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  return mutate(home, workspace, id, options, async (ctx) => {
    if (ctx.current) throw new OdaError("refused", MESSAGES.couldNotChange("it is not deleted."));
    const newest = (await listVersionNames(ctx.place.history))[0];
    if (!newest) throw new OdaError("not_found", MESSAGES.noMemory(id));
    return writeBack(ctx, await readVersionRaw(ctx.place, newest.name), "restore");
  });
}

/**
 * Undoes the chat change that made the current state: writes back the state
 * it replaced (source `undo`); a memory a chat created is deleted.
 */
export async function undoChatChange(
  home: string,
  workspace: string | null,
  id: string,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  return mutate(home, workspace, id, options, async (ctx) => {
    const cur = ctx.current;
    if (!cur) throw new OdaError("not_found", MESSAGES.noMemory(id));
    if (cur.state.source !== "chat") throw new OdaError("refused", MESSAGES.notFromChat);
    // listed once: the same listing names the version to write back and the ones the save compares with
    const versions = await listVersionNames(ctx.place.history);
    const newest = versions[0];
    if (!newest) return commit(ctx, null, "undo", cur.parse.ok ? cur.parse.title : "", versions);
    return writeBack(ctx, await readVersionRaw(ctx.place, newest.name), "undo", versions);
  });
}

/**
 * Saves a person's raw text of a memory file (the fix of a file with a
 * problem) exactly as given, only if it then reads with no problem; the old
 * state is kept as a version. Otherwise refused with the problem's sentence.
 */
export async function saveRawMemoryFile(
  home: string,
  workspace: string | null,
  id: string,
  raw: string,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  return mutate(home, workspace, id, options, async (ctx) => {
    const bytes = Buffer.from(raw, "utf8");
    const parsed = parseMemoryFile(bytes, ctx.limits);
    if (!parsed.ok) throw new OdaError("refused", MESSAGES.couldNotChange(parsed.message));
    if (ctx.current && sha256Hex(bytes) === ctx.current.sha256) {
      return { changed: false, message: MESSAGES.unchanged, memory: await findMemory(home, workspace, id, ctx.limits) };
    }
    if (parsed.fields.enabled) {
      await checkTokenLimit(
        home,
        workspace,
        id,
        { title: parsed.title, text: parsed.text, created: parsed.fields.created },
        ctx.limits,
      );
    }
    return commit(ctx, raw, sourceOf(options));
  });
}
