import { randomBytes } from "node:crypto";
import { promises as fsp } from "node:fs";
import { join } from "node:path";
import { OdaError } from "../errors";
import { readMemoryAt } from "./details";
import {
  countCodePoints,
  type MemoryFields,
  normaliseText,
  normaliseTitle,
  serialiseMemoryFile,
  type VersionSource,
} from "./format";
import { listVersionNames, parseVersionName, readRegularFile, type VersionName } from "./history";
import { MESSAGES } from "./messages";
import {
  type ChangeOptions,
  type ChangeResult,
  type Context,
  commit,
  mutate,
  mutateChecked,
  refuseFields,
  requireLive,
} from "./mutate";
import { checkMemoryId, checkWorkspace, type MemoryId, type WorkspaceKey } from "./names";
import { decodeUtf8, parseMemoryFile, parseMemorySource } from "./parse";
import { type MemoryPlace, placeMemory } from "./paths";
import { checkTokenLimit } from "./payload";
import { sha256Hex } from "./read-file";
import { readSettings } from "./settings";

export type { ChangeOptions, ChangeResult } from "./mutate";

const sourceOf = (o: ChangeOptions): VersionSource => o.source ?? "settings";

/** Refuses the change when a chat it affects would go over its token limit (the change's context holds the rest). */
function checkTokens(ctx: Context, next: { title: string; text: string; created?: string }): Promise<void> {
  return checkTokenLimit(ctx, next);
}

/** The answer of a change that writes nothing: why, and the memory as it stands. */
async function notChanged(ctx: Context, message: string): Promise<ChangeResult> {
  return { changed: false, message, memory: await readMemoryAt(ctx.place, ctx.limits) };
}

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
  const key = checkWorkspace(workspace);
  const id = options.id === undefined ? undefined : checkMemoryId(options.id);
  // Read once: the fields are checked against these limits before an id is drawn, and the change uses them too.
  const { limits } = await readSettings(home);
  refuseFields(input.title, input.text, limits);
  const change = { ...options, expectedSha256: undefined };
  return mutateChecked(home, key, id ?? (await freeId(home, key)), change, create, { limits });

  async function create(ctx: Context): Promise<ChangeResult> {
    const id = ctx.place.id;
    if (ctx.current)
      throw new OdaError("refused", MESSAGES.couldNotChange(`a memory with the id "${id}" already exists.`));
    const title = normaliseTitle(input.title);
    const text = normaliseText(input.text);
    const enabled = input.enabled ?? true;
    if (enabled) await checkTokens(ctx, { title, text, created: ctx.now });
    const fields = withSession(
      { title, enabled, source: options.source === "chat" ? "ai" : "user", created: ctx.now, updated: ctx.now },
      options,
    );
    return commit(ctx, serialiseMemoryFile(fields, text), sourceOf(options));
  }
}

/** A random id with no file and no history in the set. */
export async function freeId(home: string, workspace: WorkspaceKey): Promise<MemoryId> {
  for (;;) {
    // Eight hex digits: a memory id by construction.
    const id = randomBytes(4).toString("hex") as MemoryId;
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

/**
 * Changes a memory's title, text, or both, and with `enabled` turns it on or
 * off in the same save (the editor's draft). A change that changes nothing
 * saves nothing and says so.
 */
export async function changeMemory(
  home: string,
  workspace: string | null,
  id: string,
  change: { title?: string; text?: string; enabled?: boolean },
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  const [key, checkedId] = [checkWorkspace(workspace), checkMemoryId(id)];
  if (change.title === undefined && change.text === undefined && change.enabled === undefined)
    throw new OdaError("refused", MESSAGES.giveTitleOrText);
  return mutateChecked(home, key, checkedId, options, async (ctx) => {
    const cur = requireLive(ctx);
    const title = normaliseTitle(change.title ?? cur.parse.title);
    const text = normaliseText(change.text ?? cur.parse.text);
    refuseFields(title, text, ctx.limits);
    const f = cur.parse.fields;
    const enabled = change.enabled ?? f.enabled;
    if (title === cur.parse.title && text === cur.parse.text && enabled === f.enabled) {
      return notChanged(ctx, MESSAGES.unchanged);
    }
    // A chat's payload can only grow if this memory's block grows (same place, same order) or it is turned on.
    const grows =
      countCodePoints(title) + countCodePoints(text) >
      countCodePoints(cur.parse.title) + countCodePoints(cur.parse.text);
    if (enabled && (grows || !f.enabled || f.created === undefined)) {
      await checkTokens(ctx, { title, text, created: f.created });
    }
    return commit(
      ctx,
      serialiseMemoryFile(withSession({ ...f, title, enabled, updated: ctx.now }, options), text),
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
      return notChanged(ctx, MESSAGES.alreadyOff);
    }
    const cur = requireLive(ctx);
    const f = cur.parse.fields;
    if (f.enabled === enabled) {
      return notChanged(ctx, enabled ? MESSAGES.alreadyOn : MESSAGES.alreadyOff);
    }
    if (enabled) {
      refuseFields(cur.parse.title, cur.parse.text, ctx.limits);
      await checkTokens(ctx, { title: cur.parse.title, text: cur.parse.text, created: f.created });
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
    if (!ctx.current) throw new OdaError("not_found", MESSAGES.noMemoryIn(id, workspace));
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
    return notChanged(ctx, MESSAGES.unchanged);
  }
  if (f.enabled) {
    await checkTokens(ctx, { title: parsed.title, text: parsed.text, created: f.created });
  }
  return commit(ctx, serialiseMemoryFile({ ...f, updated: ctx.now }, parsed.text), source, "", versions);
}

async function readVersionRaw(place: MemoryPlace, name: string): Promise<string> {
  const v = typeof name === "string" ? parseVersionName(name) : null;
  const bytes = v ? await readRegularFile(join(place.history, v.name)).catch(() => null) : null;
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
    if (!newest) throw new OdaError("not_found", MESSAGES.noMemoryIn(id, workspace));
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
    if (!cur) throw new OdaError("not_found", MESSAGES.noMemoryIn(id, workspace));
    if (cur.state.source !== "chat") throw new OdaError("refused", MESSAGES.notFromChat);
    // listed once: the same listing names the version to write back and the ones the save compares with
    const versions = await listVersionNames(ctx.place.history);
    // The chat change replaced the newest state older than itself. A version of the current chat state
    // itself (kept by a change interrupted before it replaced the file) is not what the undo writes back.
    const newest = versions.find((v) => !(v.source === "chat" && v.moment === cur.state.savedAt));
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
      return notChanged(ctx, MESSAGES.unchanged);
    }
    if (parsed.fields.enabled) {
      await checkTokens(ctx, { title: parsed.title, text: parsed.text, created: parsed.fields.created });
    }
    return commit(ctx, raw, sourceOf(options));
  });
}
