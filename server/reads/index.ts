import "server-only";
import type { z } from "zod";
import { type ActionResult, failure, settle } from "@/server/access/action";
import type { SourceContext } from "@/server/source/context";
import { readChatWindow, ZChatWindow } from "@/server/views/chat-window";
import { readBundleJob, ZBundleJob } from "./bundles";
import { readFindInChat, readNextError, readSeekLine, ZFind, ZNextError, ZSeek } from "./chats";
import {
  readDeleted,
  readEditorContext,
  readFormRefusals,
  readHealth,
  readHistory,
  readMemory,
  readMemorySettings,
  readOverview,
  readPayload,
  readProblems,
  readSet,
  ZEditorContext,
  ZFormCount,
  ZMemoryRef,
  ZNone,
  ZSet,
} from "./memory";
import {
  readCopies,
  readHomeLockPreview,
  readRepairPreview,
  readRepairsJob,
  readRepairsOverview,
  ZCompare,
  ZTargetInput,
} from "./repairs";
import { readIndexFolders, readIndexStatus, readSearch, ZSearch } from "./search";

/**
 * A read: the schema its input is checked with, and the plain function that answers it for one source. `signal`
 * is the request's (`null` for a page's prefetch): a long read may stop once nobody waits for its answer.
 */
interface Read<S extends z.ZodType, T> {
  input: S;
  run: (ctx: SourceContext, input: z.infer<S>, signal: AbortSignal | null) => Promise<T> | T;
}

const read = <S extends z.ZodType, T>(
  input: S,
  run: (ctx: SourceContext, input: z.infer<S>, signal: AbortSignal | null) => Promise<T> | T,
) => ({ input, run }) satisfies Read<S, T>;

/**
 * Every read the pages prefetch, poll or ask for, by name: one body each. The
 * browser reads them through `GET /api/read/<name>?input=<json>` (route
 * handlers run side by side, where Next runs server actions one at a time),
 * and a page prefetches them on the server (`components/shell/prefetch.tsx`);
 * both call `runRead` with the request's source. Server actions
 * (`server/actions/`) only write.
 */
export const READS = {
  "memory.overview": read(ZNone, readOverview),
  "memory.set": read(ZSet, readSet),
  "memory.one": read(ZMemoryRef, readMemory),
  "memory.editor-context": read(ZEditorContext, readEditorContext),
  "memory.settings": read(ZNone, readMemorySettings),
  "memory.history": read(ZMemoryRef, readHistory),
  "memory.deleted": read(ZNone, readDeleted),
  "memory.payload": read(ZSet, readPayload),
  "memory.problems": read(ZNone, readProblems),
  "memory.health": read(ZNone, readHealth),
  "memory.form-refusals": read(ZFormCount, readFormRefusals),
  "search.results": read(ZSearch, readSearch),
  // Polling may start a refresh when the folder changed, never force one (the Refresh button's action does).
  "search.status": read(ZNone, (ctx) => readIndexStatus(ctx, "when-stale")),
  "search.folders": read(ZNone, readIndexFolders),
  "repairs.overview": read(ZNone, readRepairsOverview),
  "repairs.job": read(ZNone, readRepairsJob),
  "repairs.preview": read(ZTargetInput, readRepairPreview),
  "repairs.lock-preview": read(ZNone, readHomeLockPreview),
  "repairs.copies": read(ZCompare, readCopies),
  "chats.find": read(ZFind, readFindInChat),
  "chats.next-error": read(ZNextError, readNextError),
  "chats.seek": read(ZSeek, readSeekLine),
  // The chat list over a built index, a window at a time (the listing's stream sends no rows then).
  "chats.window": read(ZChatWindow, readChatWindow),
  "bundles.job": read(ZBundleJob, (_ctx, input) => readBundleJob(input)),
};

/** The name of a read. */
export type ReadName = keyof typeof READS;

/** What a read answers with when it succeeds. */
export type ReadData<N extends ReadName> = Awaited<ReturnType<(typeof READS)[N]["run"]>>;

/** True for a known read's name (the route's parameter is data). */
export function isReadName(name: string): name is ReadName {
  return Object.hasOwn(READS, name);
}

/**
 * Runs a read for a caller that passed its own guard (`guardPage` or
 * `guardRoute`) and made the request's context at its edge (`pageSource` or
 * `routeSource`, passed as a function so a closed bundle's refusal becomes the
 * read's answer). `signal`: the request's, when it has one (the GET route's). Nothing here writes, and nothing
 * here is a server action.
 */
export async function runRead<N extends ReadName>(
  name: N,
  input: unknown,
  source: () => SourceContext | Promise<SourceContext>,
  signal: AbortSignal | null = null,
): Promise<ActionResult<ReadData<N>>> {
  let ctx: SourceContext;
  try {
    ctx = await source();
  } catch (thrown) {
    return failure(thrown);
  }
  const { input: schema, run } = READS[name] as unknown as Read<z.ZodType, ReadData<N>>;
  return settle(schema, input, (parsed) => run(ctx, parsed, signal));
}
