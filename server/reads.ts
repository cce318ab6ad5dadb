import "server-only";
import {
  getEditorContextAction,
  getMemoryAction,
  getOverviewAction,
  getSetAction,
  getSettingsAction,
  lintAction,
  listDeletedAction,
  listProblemsAction,
  readHistoryAction,
  readPayloadAction,
} from "@/app/_actions/memory";
import { repairsJobAction, repairsOverviewAction } from "@/app/_actions/repairs";
import { indexFoldersAction, indexStatusAction } from "@/app/_actions/search";
import { type ActionResult, runGuardedRead } from "@/server/action";

/**
 * Every read the pages poll or prefetch, by name. The browser reads them
 * through `GET /api/read/<name>?input=<json>` (route handlers run side by side,
 * where Next runs server actions one at a time), and a page prefetches them on
 * the server; both reuse the read actions, so each read has one body.
 */
export const READS = {
  "memory.overview": getOverviewAction,
  "memory.set": getSetAction,
  "memory.one": getMemoryAction,
  "memory.editor-context": getEditorContextAction,
  "memory.settings": getSettingsAction,
  "memory.history": readHistoryAction,
  "memory.deleted": listDeletedAction,
  "memory.payload": readPayloadAction,
  "memory.problems": listProblemsAction,
  "memory.health": lintAction,
  // Polling may start a refresh when the folder changed, never force one (the Refresh button's action does).
  "search.status": (input: unknown) => indexStatusAction({ ...asObject(input), refresh: "when-stale" }),
  "search.folders": indexFoldersAction,
  "repairs.overview": repairsOverviewAction,
  "repairs.job": repairsJobAction,
} satisfies Record<string, (input: unknown) => Promise<ActionResult<unknown>>>;

/** The name of a read. */
export type ReadName = keyof typeof READS;

/** What a read answers with when it succeeds. */
export type ReadData<N extends ReadName> = Extract<Awaited<ReturnType<(typeof READS)[N]>>, { ok: true }>["data"];

/** True for a known read's name (the route's parameter is data). */
export function isReadName(name: string): name is ReadName {
  return Object.hasOwn(READS, name);
}

function asObject(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/**
 * Runs a read for a caller that passed its own guard (`guardPage` or
 * `guardRoute`), in the source its address names (`source`: its id, made at
 * the caller's edge; whatever the input says is replaced).
 */
export function runRead<N extends ReadName>(
  name: N,
  input: unknown,
  source: string,
): Promise<ActionResult<ReadData<N>>> {
  const read = READS[name] as (input: unknown) => Promise<ActionResult<ReadData<N>>>;
  return runGuardedRead(() => read({ ...asObject(input), source }));
}
