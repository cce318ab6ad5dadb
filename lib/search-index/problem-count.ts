import { type IndexHandle, readMeta } from "./db";
import { LOCK_RANK } from "./list-order";
import { checkFreshness, type Freshness, judgeLockNow, withForm } from "./status";
import { decodeSummary, SUMMARY_COLUMNS, SUMMARY_SQL, type SummaryColumns } from "./summary-codec";

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
 * summaries' problem lists (either form, `summary-codec.ts`), no log opened and no row sent anywhere. Only the
 * chats that had a lock are read whole, to judge the lock again now (its
 * holder may have died without any file changing). The count and the
 * fingerprints the freshness check compares are read in one turn of the event
 * loop, so a refresh running meanwhile cannot make an older count look current.
 * With `check` (the server's decode worker, as the chat list does) the folder
 * is compared elsewhere, on another connection: a count read under another
 * refresh than the one checked is then not current.
 */
export async function countProblemChats(
  handle: IndexHandle,
  options: { compress?: boolean; check?: () => Promise<Freshness> } = {},
): Promise<ProblemChatCount> {
  const db = handle.db;
  const count = countProblemChatsNow(handle);
  const form = readMeta(db, "compress");
  const refreshedAt = readMeta(db, "refreshedAt");
  const built = refreshedAt !== null;
  const { check } = options;
  let checked = await (check ? check() : checkFreshness(handle, { reuse: false }));
  if (check && (checked.refreshedAt !== refreshedAt || readMeta(db, "refreshedAt") !== refreshedAt))
    checked = { ...checked, fresh: false };
  const freshness = withForm(checked, form, options.compress);
  return { count, built, freshness };
}

/**
 * The count of `countProblemChats` alone, now (no freshness check): for a
 * page that shows the index's numbers at once and says when they were checked.
 */
export function countProblemChatsNow(handle: IndexHandle): number {
  const db = handle.db;
  // As recorded at the last refresh, from the problems' sort index alone (no summary read): 0.3 s and more over
  // every summary at 100,000 chats, a millisecond from the index.
  const recorded = db.prepare(`SELECT count(*) AS n FROM chats WHERE ${SUMMARY_SQL.problems} > 0`).get() as {
    n: number;
  };
  // The lock sort's index finds the chats with a lock (every state but none ranks above 0), not a pass over all:
  // each is judged again now, and counted as it is judged instead of as it was recorded.
  const locked = db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM chats WHERE ${LOCK_RANK} > 0`).all() as (SummaryColumns & {
    summary: string;
  })[];
  let count = recorded.n;
  for (const row of locked) {
    const chat = decodeSummary(row.summary, row, handle.logDir);
    const had = chat.problems.length > 0;
    judgeLockNow(chat, handle.logDir);
    count += Number(chat.problems.length > 0) - Number(had);
  }
  return count;
}
