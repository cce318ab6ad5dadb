import type { ChatSummary } from "../sessions";
import { type IndexHandle, readMeta } from "./db";
import { checkFreshness, type Freshness, judgeLockNow, withForm } from "./status";

/** How many indexed chats have at least one problem, and whether the index was current when counted. */
export interface ProblemChatCount {
  /** Chats whose own problems (the chat list's) are not empty, locks judged now. */
  count: number;
  /** False until a first refresh has finished (the count is then no count at all). */
  built: boolean;
  /** The index compared with the folder and its form, after the count was taken. */
  freshness: Freshness;
}

/**
 * Counts the chats with problems from the index: one SQL pass over the stored
 * summaries' problem lists, no log opened and no row sent anywhere. Only the
 * chats that had a lock are read whole, to judge the lock again now (its
 * holder may have died without any file changing). The count and the
 * fingerprints the freshness check compares are read in one turn of the event
 * loop, so a refresh running meanwhile cannot make an older count look current.
 */
export async function countProblemChats(
  handle: IndexHandle,
  options: { compress?: boolean } = {},
): Promise<ProblemChatCount> {
  const db = handle.db;
  const unlocked = db
    .prepare(
      `SELECT count(*) AS n FROM chats
       WHERE json_extract(summary, '$.lock.state') = 'none' AND json_array_length(summary, '$.problems') > 0`,
    )
    .get() as { n: number };
  const locked = db
    .prepare("SELECT summary FROM chats WHERE json_extract(summary, '$.lock.state') != 'none'")
    .all() as { summary: string }[];
  let count = unlocked.n;
  for (const { summary } of locked) {
    const chat = JSON.parse(summary) as ChatSummary;
    judgeLockNow(chat, handle.logDir);
    if (chat.problems.length > 0) count++;
  }
  const form = readMeta(db, "compress");
  const built = readMeta(db, "refreshedAt") !== null;
  const freshness = withForm(await checkFreshness(handle, { reuse: false }), form, options.compress);
  return { count, built, freshness };
}
