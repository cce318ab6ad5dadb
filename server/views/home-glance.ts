import "server-only";
import type { FolderGlance } from "@/lib/chats/worker-api";
import { handleOf, startIndexRefresh } from "@/lib/search-index";
import { readMeta } from "@/lib/search-index/db";
import { type IndexGlance, indexGlance } from "@/lib/search-index/list-groups";
import type { SourceContext } from "@/server/source/context";
import { logFolder } from "@/server/views/chat-list";
import { folderCheck } from "@/server/workers/folder-check";
import { refreshInWorker } from "@/server/workers/index-worker";
import { inWorker } from "@/server/workers/log-worker";

/** Home's chat numbers from the index, and the check of the index against the log folder (on the decode worker). */
export interface ChatsGlanceFromIndex {
  glance: IndexGlance;
  /**
   * The check's verdict: `null` when the log folder is as the index has it; else the count of chats with
   * problems once the index was brought up to date (a refresh is started and waited for), or `undefined` when
   * that could not be done.
   */
  recounted: Promise<number | null | undefined>;
}

/**
 * Home's glance at the chats from the search index (no log folder listed on
 * this thread: at 100,000 chats that listing took 3 s a load). The folder is
 * compared with the index on the decode worker while the page is shown; when
 * it changed, the index is brought up to date and the chats with problems
 * counted again (so an old number is never the last word). `null` without a built index, or with one
 * refreshed under the other form of logs (Home then lists the folder as before).
 */
export function chatsGlanceFromIndex(ctx: SourceContext): ChatsGlanceFromIndex | null {
  const folder = logFolder(ctx);
  const state = ctx.roots.state;
  if (!folder || !state) return null;
  try {
    const handle = handleOf(state, folder.logDir);
    const glance = indexGlance(handle);
    // An index refreshed under the other form judged every log against it: its problems are not this folder's.
    if (!glance.built || readMeta(handle.db, "compress") !== String(folder.compress)) return null;
    const recounted = folderCheck(null, state, folder.logDir).then(async (f) => {
      if (f.fresh && f.refreshedAt === glance.refreshedAt) return null;
      try {
        const job = await startIndexRefresh(state, folder.logDir, {
          compress: folder.compress,
          runner: refreshInWorker,
        });
        await job.wait;
        return indexGlance(handleOf(state, folder.logDir)).problemChats;
      } catch (error) {
        console.error("oda-admin: Home could not bring the search index up to date:", error);
        return undefined;
      }
    });
    recounted.catch(() => {});
    return { glance, recounted };
  } catch (error) {
    console.error("oda-admin: Home could not read the search index:", error);
    return null;
  }
}

/**
 * Home's glance at a log folder without a built index (`folderGlance`: its chats, groups and the folder's
 * problems), walked on the decode worker: on this thread, 100,000 chat folders held every request for more
 * than a second. Rejects as the walk does when the folder cannot be read.
 */
export function folderGlanceInWorker(logDir: string): Promise<FolderGlance> {
  return inWorker("folderGlance", logDir);
}
