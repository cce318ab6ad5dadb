import { type IndexHandle, readMeta } from "./db";
import { indexedGroups } from "./list-rows";

export { type IndexedGroup, indexedGroups } from "./list-rows";

import { countProblemChatsNow } from "./problem-count";

/** Home's glance at the chats, from the index alone (no log folder listed). */
export interface IndexGlance {
  /** False until a first refresh has finished (the numbers are then no numbers at all). */
  built: boolean;
  chats: number;
  groups: number;
  /** Chats whose own problems are not empty, locks judged now (`countProblemChatsNow`). */
  problemChats: number;
  /** The folder's own problems at the last refresh, by kind. */
  folderProblemKinds: string[];
  /** When the index was last brought up to date (ISO), `null` before its first refresh. */
  refreshedAt: string | null;
}

/** The index's numbers for Home's glance, read in one turn of the event loop. */
export function indexGlance(handle: IndexHandle): IndexGlance {
  const db = handle.db;
  const refreshedAt = readMeta(db, "refreshedAt");
  const groups = indexedGroups(db);
  const folderProblems = JSON.parse(readMeta(db, "folderProblems") ?? "[]") as { kind: string }[];
  return {
    built: refreshedAt !== null,
    chats: groups.reduce((n, g) => n + g.count, 0),
    groups: groups.length,
    problemChats: countProblemChatsNow(handle),
    folderProblemKinds: folderProblems.map((p) => p.kind),
    refreshedAt,
  };
}
