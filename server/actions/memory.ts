"use server";

import { z } from "zod";
import {
  BULK_ID_PATTERN,
  bulkChange,
  changeMemory,
  createMemory,
  createWorkspaceSet,
  deleteMemory,
  previewPayloadChange,
  requireWorkspaceSet,
  restoreDeleted,
  restoreVersion,
  saveRawMemoryFile,
  setEnabled,
  undoBulk,
  undoChatChange,
  writeSettings,
  ZMemoryRef,
  ZSha256,
  ZVersionName,
  ZWorkspace,
} from "@/lib/memory";
import { runAction } from "@/server/access/action";
import { requireSourceRoot } from "@/server/source/context";

// Server actions write (the reads are in `server/reads/memory.ts`, read through GET). The one
// exception is `previewNoteAction`: it changes nothing, but carries a draft of up to 1 MB, more than
// an address holds.
// Every change returns the lib's `ChangeResult` as is: `changed`, the refusal-free `message`,
// the memory after it (null once deleted) and the version that keeps what it replaced.

const expecting = (sha: string | undefined) => (sha ? { expectedSha256: sha } : {});

/** Creates a memory from Settings > Memory. */
export async function createMemoryAction(input: unknown) {
  return runAction(
    z.object({ workspace: ZWorkspace, title: z.string(), text: z.string(), enabled: z.boolean() }),
    input,
    async ({ workspace, title, text, enabled }, ctx) => {
      const home = requireSourceRoot(ctx, "home");
      // Only "Create a memory set for workspace <key>" makes a new set: a save never does it silently.
      await requireWorkspaceSet(home, workspace);
      return createMemory(home, workspace, { title, text, enabled });
    },
    { writes: true },
  );
}

/** Changes a memory's title, text and on/off (the editor's draft); refused when its file changed since `expectedSha256`. */
export async function changeMemoryAction(input: unknown) {
  return runAction(
    ZMemoryRef.extend({
      title: z.string(),
      text: z.string(),
      enabled: z.boolean().optional(),
      expectedSha256: ZSha256,
    }),
    input,
    ({ workspace, id, title, text, enabled, expectedSha256 }, ctx) =>
      changeMemory(requireSourceRoot(ctx, "home"), workspace, id, { title, text, enabled }, { expectedSha256 }),
    { writes: true },
  );
}

/** Turns a memory on or off (turning off is never refused). */
export async function setEnabledAction(input: unknown) {
  return runAction(
    ZMemoryRef.extend({ enabled: z.boolean(), expectedSha256: ZSha256.optional() }),
    input,
    ({ workspace, id, enabled, expectedSha256 }, ctx) =>
      setEnabled(requireSourceRoot(ctx, "home"), workspace, id, enabled, expecting(expectedSha256)),
    { writes: true },
  );
}

/** Deletes a memory (never refused). */
export async function deleteMemoryAction(input: unknown) {
  return runAction(
    ZMemoryRef,
    input,
    ({ workspace, id }, ctx) => deleteMemory(requireSourceRoot(ctx, "home"), workspace, id),
    {
      writes: true,
    },
  );
}

/** Restores a version (source `restore`, also the Undo of a save); the replaced state is kept, so it can be undone too. */
export async function restoreVersionAction(input: unknown) {
  return runAction(
    ZMemoryRef.extend({ version: ZVersionName, expectedSha256: ZSha256.optional() }),
    input,
    ({ workspace, id, version, expectedSha256 }, ctx) =>
      restoreVersion(requireSourceRoot(ctx, "home"), workspace, id, version, expecting(expectedSha256)),
    { writes: true },
  );
}

/** Brings a deleted memory back from its newest version (the Undo of a delete). */
export async function restoreDeletedAction(input: unknown) {
  return runAction(
    ZMemoryRef,
    input,
    ({ workspace, id }, ctx) => restoreDeleted(requireSourceRoot(ctx, "home"), workspace, id),
    {
      writes: true,
    },
  );
}

/** Undoes the chat change that made the current state (source `undo`). */
export async function undoChatChangeAction(input: unknown) {
  return runAction(
    ZMemoryRef.extend({ expectedSha256: ZSha256.optional() }),
    input,
    ({ workspace, id, expectedSha256 }, ctx) =>
      undoChatChange(requireSourceRoot(ctx, "home"), workspace, id, expecting(expectedSha256)),
    { writes: true },
  );
}

/** Saves a person's fix of a problem file, only if it then reads with no problem. */
export async function saveRawFileAction(input: unknown) {
  return runAction(
    ZMemoryRef.extend({ raw: z.string().max(2_000_000), expectedSha256: ZSha256.optional() }),
    input,
    ({ workspace, id, raw, expectedSha256 }, ctx) =>
      saveRawMemoryFile(requireSourceRoot(ctx, "home"), workspace, id, raw, expecting(expectedSha256)),
    { writes: true },
  );
}

const ZChange = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("edit"), title: z.string().max(100_000), text: z.string().max(1_000_000) }),
  z.object({ kind: z.literal("enabled"), enabled: z.boolean() }),
  z.object({ kind: z.literal("delete") }),
]);

/** Previews, without saving, a change's effect on a chat's payload and the note a running chat would be sent. */
export async function previewNoteAction(input: unknown) {
  return runAction(z.object({ workspace: ZWorkspace, target: ZMemoryRef, change: ZChange }), input, async (v, ctx) => {
    const p = await previewPayloadChange(requireSourceRoot(ctx, "home"), v.workspace, v.target, v.change);
    return {
      note: p.note,
      problems: p.problems,
      tokens: p.after.tokens,
      before: p.before.tokens,
      limit: p.after.limit,
    };
  });
}

/** Saves the limits and `sessions.compress`; the lib refuses a value out of range. */
export async function saveSettingsAction(input: unknown) {
  const n = z.number();
  const ZSettings = z.object({
    titleMaxChars: n,
    textMaxChars: n,
    fileMaxBytes: n,
    chatMaxTokens: n,
    versionsKept: n,
    compress: z.boolean(),
  });
  return runAction(ZSettings, input, (values, ctx) => writeSettings(requireSourceRoot(ctx, "home"), values), {
    writes: true,
  });
}

/** Creates a workspace's memory set folder, when a person asks for it on the page of a set that does not exist. */
export async function createWorkspaceSetAction(input: unknown) {
  return runAction(
    z.object({ workspace: ZWorkspace.unwrap() }),
    input,
    ({ workspace }, ctx) => createWorkspaceSet(requireSourceRoot(ctx, "home"), workspace),
    { writes: true },
  );
}

const ZBulkAction = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("on") }),
  z.object({ kind: z.literal("off") }),
  z.object({ kind: z.literal("delete") }),
  z.object({ kind: z.literal("restore") }),
  z.object({ kind: z.literal("move"), to: ZWorkspace }),
]);

/** A bulk change: all or nothing, refused whole with every reason; its `bulkId` is what one Undo takes. */
export async function bulkChangeAction(input: unknown) {
  return runAction(
    z.object({ targets: z.array(ZMemoryRef).min(1).max(10_000), action: ZBulkAction }),
    input,
    ({ targets, action }, ctx) => bulkChange(requireSourceRoot(ctx, "home"), targets, action),
    { writes: true },
  );
}

/** Puts back every memory of a bulk change, all or nothing. */
export async function undoBulkAction(input: unknown) {
  return runAction(
    z.object({ bulkId: z.string().regex(BULK_ID_PATTERN) }),
    input,
    ({ bulkId }, ctx) => undoBulk(requireSourceRoot(ctx, "home"), bulkId),
    { writes: true },
  );
}
