"use server";

import { z } from "zod";
import { OdaError } from "@/lib/errors";
import {
  type ChangeResult,
  chatPayload,
  findMemory,
  listAllProblems,
  listDeleted,
  listSet,
  listVersions,
  listWorkspaces,
  MEMORY_ID_PATTERN,
  previewPayloadChange,
  restoreDeleted,
  restoreVersion,
  saveRawMemoryFile,
  undoChatChange,
  WORKSPACE_KEY_PATTERN,
} from "@/lib/memory";
import { runAction } from "@/server/action";
import { serverRoots } from "@/server/roots";

function home(): string {
  const h = serverRoots().home;
  if (!h) throw new OdaError("unusable", "No Oda home is set: start the dashboard with --home DIR or ODA_HOME.");
  return h;
}

const ZWorkspace = z.string().regex(WORKSPACE_KEY_PATTERN).nullable();
const ZId = z.string().regex(MEMORY_ID_PATTERN);
const ZMemoryRef = z.object({ workspace: ZWorkspace, id: ZId });
const ZSha = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .optional();

/** What a change returns to the page: plain data, no memory body. */
function summarise(r: ChangeResult) {
  return {
    changed: r.changed,
    message: r.message ?? null,
    keptVersion: r.keptVersion ?? null,
    deleted: r.memory === null,
  };
}

/** A memory's current state (null when deleted or gone), its deletion mark and its versions, newest first. */
export async function readHistoryAction(input: unknown) {
  return runAction(ZMemoryRef, input, async ({ workspace, id }) => {
    const h = home();
    const [current, versions, deleted] = await Promise.all([
      findMemory(h, workspace, id),
      listVersions(h, workspace, id),
      listDeleted(h, workspace),
    ]);
    const mark = deleted.find((d) => d.id === id);
    return { current, versions, deleted: mark ? { deletedAt: mark.deletedAt, title: mark.title } : null };
  });
}

/** Restores a version (source `restore`); the replaced state becomes a version. */
export async function restoreVersionAction(input: unknown) {
  return runAction(
    ZMemoryRef.extend({ version: z.string().max(64), expectedSha256: ZSha }),
    input,
    async (v) =>
      summarise(
        await restoreVersion(
          home(),
          v.workspace,
          v.id,
          v.version,
          v.expectedSha256 ? { expectedSha256: v.expectedSha256 } : {},
        ),
      ),
    { writes: true },
  );
}

/** Undoes the chat change that made the current state (source `undo`). */
export async function undoChatChangeAction(input: unknown) {
  return runAction(
    ZMemoryRef.extend({ expectedSha256: ZSha }),
    input,
    async (v) =>
      summarise(
        await undoChatChange(home(), v.workspace, v.id, v.expectedSha256 ? { expectedSha256: v.expectedSha256 } : {}),
      ),
    { writes: true },
  );
}

/** Every deleted memory of every set, newest deletion first. */
export async function listDeletedAction(input: unknown) {
  return runAction(z.object({}).optional(), input, async () => {
    const h = home();
    const sets = [null, ...(await listWorkspaces(h))];
    const all = (await Promise.all(sets.map((ws) => listDeleted(h, ws)))).flat();
    return all.sort((a, b) => (a.deletedAt < b.deletedAt ? 1 : a.deletedAt > b.deletedAt ? -1 : 0));
  });
}

/** Restores a deleted memory from its newest version. */
export async function restoreDeletedAction(input: unknown) {
  return runAction(ZMemoryRef, input, async (v) => summarise(await restoreDeleted(home(), v.workspace, v.id)), {
    writes: true,
  });
}

/** What a chat in a workspace (or none) receives, the workspaces to pick from, and the memories it could change. */
export async function readPayloadAction(input: unknown) {
  return runAction(z.object({ workspace: ZWorkspace }), input, async ({ workspace }) => {
    const h = home();
    const [payload, workspaces, global, ws] = await Promise.all([
      chatPayload(h, workspace),
      listWorkspaces(h),
      listSet(h, null),
      workspace === null ? null : listSet(h, workspace),
    ]);
    const memories = [...global.memories, ...(ws?.memories ?? [])].map((m) => ({
      id: m.id,
      workspace: m.workspace,
      title: m.title,
      text: m.text,
      enabled: m.enabled,
    }));
    return { payload, workspaces, memories };
  });
}

const ZChange = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("edit"), title: z.string().max(100_000), text: z.string().max(1_000_000) }),
  z.object({ kind: z.literal("enabled"), enabled: z.boolean() }),
  z.object({ kind: z.literal("delete") }),
]);

/** Previews, without saving, a change's effect on a chat's payload and the note a running chat would be sent. */
export async function previewNoteAction(input: unknown) {
  return runAction(z.object({ workspace: ZWorkspace, target: ZMemoryRef, change: ZChange }), input, async (v) => {
    const p = await previewPayloadChange(home(), v.workspace, v.target, v.change);
    return {
      note: p.note,
      problems: p.problems,
      tokens: p.after.tokens,
      before: p.before.tokens,
      limit: p.after.limit,
    };
  });
}

/** Every problem under the home, with each problem file's raw text and sha256 for the raw editor. */
export async function listProblemsAction(input: unknown) {
  return runAction(z.object({}).optional(), input, async () => {
    const h = home();
    const problems = await listAllProblems(h);
    return Promise.all(
      problems.map(async (p) => {
        const file = p.id === null ? null : await findMemory(h, p.workspace, p.id).catch(() => null);
        return { ...p, line: p.line ?? null, raw: file?.raw ?? null, sha256: file?.sha256 ?? null };
      }),
    );
  });
}

/** Saves a person's fix of a problem file, only if it then reads with no problem. */
export async function saveRawFileAction(input: unknown) {
  return runAction(
    ZMemoryRef.extend({ raw: z.string().max(2_000_000), expectedSha256: ZSha }),
    input,
    async (v) =>
      summarise(
        await saveRawMemoryFile(
          home(),
          v.workspace,
          v.id,
          v.raw,
          v.expectedSha256 ? { expectedSha256: v.expectedSha256 } : {},
        ),
      ),
    { writes: true },
  );
}
