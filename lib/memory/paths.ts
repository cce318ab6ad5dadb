import { promises as fsp } from "node:fs";
import { ensureFolderInside, realRootOf, resolveInsideReal } from "../fs";
import { assertMemoryId, assertWorkspace } from "./names";

/** `memory/global` or `memory/workspaces/<key>`, as path segments. */
export function setSegments(workspace: string | null): string[] {
  assertWorkspace(workspace);
  return workspace === null ? ["memory", "global"] : ["memory", "workspaces", workspace];
}

/** `memory-history/global/<id>` or `memory-history/workspaces/<key>/<id>`, as path segments. */
export function historySegments(workspace: string | null, id: string): string[] {
  assertWorkspace(workspace);
  assertMemoryId(id);
  return workspace === null ? ["memory-history", "global", id] : ["memory-history", "workspaces", workspace, id];
}

/** The history folder of a set (holding one folder per memory id). */
export function historySetSegments(workspace: string | null): string[] {
  assertWorkspace(workspace);
  return workspace === null ? ["memory-history", "global"] : ["memory-history", "workspaces", workspace];
}

/** Posix path relative to the home, for messages and JSON (never an absolute path). */
export function relativeToHome(...segments: string[]): string {
  return segments.join("/");
}

/** The resolved places of one memory. Names are checked before any file call. */
export interface MemoryPlace {
  home: string;
  workspace: string | null;
  id: string;
  /** The set folder (absolute). */
  folder: string;
  /** The memory file (absolute). */
  file: string;
  /** The memory's history folder (absolute). */
  history: string;
  /** The memory file relative to the home. */
  relativePath: string;
}

/** Resolves a memory's places inside the home (symlinks checked); creates the folders when `create`. */
export async function placeMemory(
  home: string,
  workspace: string | null,
  id: string,
  create = false,
): Promise<MemoryPlace> {
  const set = setSegments(workspace);
  const hist = historySegments(workspace, id);
  if (create) {
    await fsp.mkdir(home, { recursive: true });
    await Promise.all([ensureFolderInside(home, ...set), ensureFolderInside(home, ...hist)]);
  }
  // the home's real path once for the three checks, which then run at once
  const realHome = realRootOf(home);
  const [folder, history, file] = await Promise.all([
    resolveInsideReal(home, realHome, ...set),
    resolveInsideReal(home, realHome, ...hist),
    resolveInsideReal(home, realHome, ...set, id),
  ]);
  return { home, workspace, id, folder, file, history, relativePath: relativeToHome(...set, id) };
}
