import { promises as fsp } from "node:fs";
import { ensureFolderInside, realRootOf, resolveInsideReal } from "../fs";
import type { MemoryId, WorkspaceKey } from "./names";

// The names were checked at the entry (`checkWorkspace`, `checkMemoryId`): their types say so, and no path
// function checks them again.

/** `memory/global` or `memory/workspaces/<key>`, as path segments. */
export function setSegments(workspace: WorkspaceKey): string[] {
  return workspace === null ? ["memory", "global"] : ["memory", "workspaces", workspace];
}

/** `memory-history/global/<id>` or `memory-history/workspaces/<key>/<id>`, as path segments. */
export function historySegments(workspace: WorkspaceKey, id: MemoryId): string[] {
  return workspace === null ? ["memory-history", "global", id] : ["memory-history", "workspaces", workspace, id];
}

/** The history folder of a set (holding one folder per memory id). */
export function historySetSegments(workspace: WorkspaceKey): string[] {
  return workspace === null ? ["memory-history", "global"] : ["memory-history", "workspaces", workspace];
}

/** Posix path relative to the home, for messages and JSON (never an absolute path). */
export function relativeToHome(...segments: string[]): string {
  return segments.join("/");
}

/** The resolved places of one memory. Names are checked before any file call. */
export interface MemoryPlace {
  home: string;
  workspace: WorkspaceKey;
  id: MemoryId;
  /** The set folder (absolute). */
  folder: string;
  /** The memory file (absolute). */
  file: string;
  /** The memory's history folder (absolute). */
  history: string;
  /** The memory file relative to the home. */
  relativePath: string;
}

/**
 * Resolves a memory's places inside the home (symlinks checked); creates the folders when `create`.
 * `realHome`: the home's real path when the caller resolved it already (once per change).
 */
export async function placeMemory(
  home: string,
  workspace: WorkspaceKey,
  id: MemoryId,
  create = false,
  realHome?: Promise<string>,
): Promise<MemoryPlace> {
  const set = setSegments(workspace);
  const hist = historySegments(workspace, id);
  if (create) {
    await fsp.mkdir(home, { recursive: true });
    await Promise.all([ensureFolderInside(home, ...set), ensureFolderInside(home, ...hist)]);
  }
  // the home's real path once for the three checks, which then run at once
  const real = realHome ?? realRootOf(home);
  const [folder, history, file] = await Promise.all([
    resolveInsideReal(home, real, ...set),
    resolveInsideReal(home, real, ...hist),
    resolveInsideReal(home, real, ...set, id),
  ]);
  return { home, workspace, id, folder, file, history, relativePath: relativeToHome(...set, id) };
}
