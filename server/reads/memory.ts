import "server-only";
import { z } from "zod";
import {
  chatPayload,
  editorContext,
  findMemory,
  listAllDeleted,
  listDeleted,
  listProblemFiles,
  listSet,
  listVersions,
  listWorkspaces,
  memoryOverview,
  readSettings,
  ZMemoryId,
  ZMemoryRef,
  ZWorkspace,
} from "@/lib/memory";
import { lintMemory } from "@/lib/memory/lint";
import { requireSourceRoot, type SourceContext } from "@/server/source/context";

// The memory pages' reads: plain functions of the request's source and a parsed input. The page's
// server prefetch and the GET read route both call them (through `server/reads/index.ts`).

const home = (ctx: SourceContext) => requireSourceRoot(ctx, "home");

export const ZNone = z.object({});
export const ZSet = z.object({ workspace: ZWorkspace });
export const ZEditorContext = z.object({ workspace: ZWorkspace, id: ZMemoryId.nullable() });
export const ZFormCount = z.object({ compress: z.boolean() });
export { ZMemoryRef };

type Ref = z.infer<typeof ZMemoryRef>;

/** Every set (global first) with its memories, problems and ignored files, the chats' budgets and the settings problems. */
export function readOverview(ctx: SourceContext) {
  return memoryOverview(home(ctx));
}

/** One set read from disk, with the limits. */
export async function readSet(ctx: SourceContext, { workspace }: z.infer<typeof ZSet>) {
  const { limits } = await readSettings(home(ctx));
  return { set: await listSet(home(ctx), workspace, { limits }), limits };
}

/** One memory read in full (null once its file is gone). */
export function readMemory(ctx: SourceContext, { workspace, id }: Ref) {
  return findMemory(home(ctx), workspace, id);
}

/** The limits and the other memories' payload pieces of every chat an edit affects. */
export function readEditorContext(ctx: SourceContext, { workspace, id }: z.infer<typeof ZEditorContext>) {
  return editorContext(home(ctx), workspace, id);
}

/** The settings as read (defaults filled in) with their problems. */
export function readMemorySettings(ctx: SourceContext) {
  return readSettings(home(ctx));
}

/** A memory's current state (null when deleted or gone), its deletion mark and its versions, newest first. */
export async function readHistory(ctx: SourceContext, { workspace, id }: Ref) {
  const [current, versions, deleted] = await Promise.all([
    findMemory(home(ctx), workspace, id),
    listVersions(home(ctx), workspace, id),
    listDeleted(home(ctx), workspace),
  ]);
  const mark = deleted.find((d) => d.id === id);
  return { current, versions, deleted: mark ? { deletedAt: mark.deletedAt, title: mark.title } : null };
}

/** Every deleted memory of every set, newest deletion first. */
export function readDeleted(ctx: SourceContext) {
  return listAllDeleted(home(ctx));
}

/** Every problem under the home, with each problem file's raw text and sha256 for the raw editor. */
export function readProblems(ctx: SourceContext) {
  return listProblemFiles(home(ctx));
}

/** What a chat in a workspace (or none) receives, the workspaces to pick from, and the memories it could change. */
export async function readPayload(ctx: SourceContext, { workspace }: z.infer<typeof ZSet>) {
  const root = home(ctx);
  const [payload, workspaces, global, ws] = await Promise.all([
    chatPayload(root, workspace),
    listWorkspaces(root),
    listSet(root, null),
    workspace === null ? null : listSet(root, workspace),
  ]);
  const memories = [...global.memories, ...(ws?.memories ?? [])].map((m) => ({
    id: m.id,
    workspace: m.workspace,
    title: m.title,
    text: m.text,
    enabled: m.enabled,
  }));
  return { payload, workspaces, memories };
}

/** Memory lint over every set: the Memory health page's findings. */
export function readHealth(ctx: SourceContext) {
  return lintMemory(home(ctx), { all: true });
}

/** How many chats of the log folder a form (`sessions.compress`) would refuse, asked before saving a change of it. */
export async function readFormRefusals(ctx: SourceContext, { compress }: z.infer<typeof ZFormCount>) {
  const logs = ctx.roots.logs;
  // Loaded on demand: only this read of the memory pages reads the log folder.
  const { countFormRefusals } = await import("@/lib/chats/form-count");
  // No log folder: no chat to refuse.
  return logs ? countFormRefusals(logs, compress) : { refused: 0, total: 0 };
}
