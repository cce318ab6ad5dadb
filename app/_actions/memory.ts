"use server";

import { z } from "zod";
import { OdaError } from "@/lib/errors";
import {
  changeMemory,
  createMemory,
  createWorkspaceSet,
  deleteMemory,
  editorContext,
  findMemory,
  listSet,
  listWorkspaces,
  readSettings,
  requireWorkspaceSet,
  restoreDeleted,
  restoreVersion,
  setEnabled,
  tokenBudgets,
  writeSettings,
} from "@/lib/memory";
import { countFormRefusals } from "@/lib/sessions";
import { runAction } from "@/server/action";
import { serverRoots } from "@/server/roots";

/** The Oda home this server serves; refused when none is set. */
function home(): string {
  const h = serverRoots().home;
  if (!h) throw new OdaError("unusable", "No Oda home is set: start the dashboard with --home or ODA_HOME.");
  return h;
}

// Names are checked against the contract's patterns by the lib before any file call.
const ZWorkspace = z.string().max(255).nullable();
const ZId = z.string().max(16);
const ZSet = z.object({ workspace: ZWorkspace });
const ZOne = z.object({ workspace: ZWorkspace, id: ZId });
const ZSha = z.string().regex(/^[0-9a-f]{64}$/);

/** Every set (global first) with its memories, problems and ignored files, the chats' budgets and the settings problems. */
export async function getOverviewAction(input: unknown = {}) {
  return runAction(z.object({}), input, async () => {
    const h = home();
    const settings = await readSettings(h);
    const keys: (string | null)[] = [null, ...(await listWorkspaces(h))];
    const sets = await Promise.all(keys.map((k) => listSet(h, k, { limits: settings.limits })));
    return { sets, budgets: await tokenBudgets(h), limits: settings.limits, settingsProblems: settings.problems };
  });
}

/** One set read from disk, with the limits. */
export async function getSetAction(input: unknown) {
  return runAction(ZSet, input, async ({ workspace }) => {
    const h = home();
    const { limits } = await readSettings(h);
    return { set: await listSet(h, workspace, { limits }), limits };
  });
}

/** One memory read in full (null once its file is gone). */
export async function getMemoryAction(input: unknown) {
  return runAction(ZOne, input, ({ workspace, id }) => findMemory(home(), workspace, id));
}

/** The limits and the other memories' payload pieces of every chat an edit affects. */
export async function getEditorContextAction(input: unknown) {
  return runAction(z.object({ workspace: ZWorkspace, id: ZId.nullable() }), input, ({ workspace, id }) =>
    editorContext(home(), workspace, id),
  );
}

/** Creates a memory from Settings > Memory. */
export async function createMemoryAction(input: unknown) {
  return runAction(
    z.object({ workspace: ZWorkspace, title: z.string(), text: z.string(), enabled: z.boolean() }),
    input,
    async ({ workspace, title, text, enabled }) => {
      // Only "Create a memory set for workspace <key>" makes a new set: a save never does it silently.
      await requireWorkspaceSet(home(), workspace);
      return createMemory(home(), workspace, { title, text, enabled });
    },
    { writes: true },
  );
}

/** Changes a memory's title, text and on/off (the editor's draft); refused when its file changed since `expectedSha256`. */
export async function changeMemoryAction(input: unknown) {
  return runAction(
    ZOne.extend({ title: z.string(), text: z.string(), enabled: z.boolean().optional(), expectedSha256: ZSha }),
    input,
    ({ workspace, id, title, text, enabled, expectedSha256 }) =>
      changeMemory(home(), workspace, id, { title, text, enabled }, { expectedSha256 }),
    { writes: true },
  );
}

/** Turns a memory on or off (turning off is never refused). */
export async function setEnabledAction(input: unknown) {
  return runAction(
    ZOne.extend({ enabled: z.boolean(), expectedSha256: ZSha.optional() }),
    input,
    ({ workspace, id, enabled, expectedSha256 }) =>
      setEnabled(home(), workspace, id, enabled, expectedSha256 ? { expectedSha256 } : {}),
    { writes: true },
  );
}

/** Deletes a memory (never refused). */
export async function deleteMemoryAction(input: unknown) {
  return runAction(ZOne, input, ({ workspace, id }) => deleteMemory(home(), workspace, id), { writes: true });
}

/** Restores a version (the Undo of a save); the replaced state is kept, so the restore can be undone too. */
export async function restoreVersionAction(input: unknown) {
  return runAction(
    ZOne.extend({ version: z.string().max(64), expectedSha256: ZSha.optional() }),
    input,
    ({ workspace, id, version, expectedSha256 }) =>
      restoreVersion(home(), workspace, id, version, expectedSha256 ? { expectedSha256 } : {}),
    { writes: true },
  );
}

/** Brings a deleted memory back (the Undo of a delete). */
export async function restoreDeletedAction(input: unknown) {
  return runAction(ZOne, input, ({ workspace, id }) => restoreDeleted(home(), workspace, id), { writes: true });
}

/** The settings as read (defaults filled in) with their problems. */
export async function getSettingsAction(input: unknown = {}) {
  return runAction(z.object({}), input, () => readSettings(home()));
}

/** Saves the limits and `sessions.compress`; the lib refuses a value out of range. */
export async function saveSettingsAction(input: unknown) {
  const n = z.number();
  return runAction(
    z.object({
      titleMaxChars: n,
      textMaxChars: n,
      fileMaxBytes: n,
      chatMaxTokens: n,
      versionsKept: n,
      compress: z.boolean(),
    }),
    input,
    (values) => writeSettings(home(), values),
    { writes: true },
  );
}

/** Creates a workspace's memory set folder, when a person asks for it on the page of a set that does not exist. */
export async function createWorkspaceSetAction(input: unknown) {
  return runAction(
    z.object({ workspace: z.string().max(255) }),
    input,
    ({ workspace }) => createWorkspaceSet(home(), workspace),
    { writes: true },
  );
}

/** How many chats of the log folder a form (`sessions.compress`) would refuse, asked before saving a change of it. */
export async function countFormRefusalsAction(input: unknown) {
  return runAction(z.object({ compress: z.boolean() }), input, async ({ compress }) => {
    const logs = serverRoots().logs;
    return logs ? countFormRefusals(logs, compress) : { refused: 0, total: 0 };
  });
}
