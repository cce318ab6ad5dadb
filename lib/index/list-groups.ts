import { type Db, type IndexHandle, readMeta } from "./db";
import { countProblemChatsNow } from "./problem-count";

/** One working-folder group as the index holds it: its folder name, working folder and number of chats. */
export interface IndexedGroup {
  group: string;
  cwd: string | null;
  count: number;
}

/**
 * Every group of the index with its count of chats, read before the rows: the
 * chat list lays out each group's heading and place from its first paint, so
 * rows streamed in later fill their places instead of pushing the rest down.
 */
export function indexedGroups(db: Db): IndexedGroup[] {
  return db
    .prepare(
      `SELECT substr(folder, 1, instr(folder, '/') - 1) AS "group", min(cwd) AS cwd, count(*) AS count
       FROM chats GROUP BY 1`,
    )
    .all() as IndexedGroup[];
}

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
