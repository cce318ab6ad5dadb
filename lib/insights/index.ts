/**
 * `lib/insights`: where the tokens, the chats and the disk space go (issue 17),
 * answered from the search index (`lib/search-index`), which keeps per-chat,
 * per-quarter-hour usage facts and per-chat storage facts as it refreshes.
 * Everything is summed in SQLite; local days come from the zone's offsets over
 * the covered range (see `tz.ts`), so `--tz` groups exactly across DST changes.
 *
 * - `usageByPeriod(db, "daily"|"weekly"|"monthly", filter)`, `usageByChat`, `usageByFolder`
 * - `activityByDay(db, filter)`: chats started and active per day, chats per folder
 * - `started.ts`: the chat list's filter by start day, by the same days (pure, for the browser)
 * - `storageReport(db, {cwd})`: bytes per folder, chat, generation, checkpoints, locks
 * - `memoryInsights(home)`: what each workspace's chats receive, memories per set and source
 * - `insightsOverview(...)`: everything the page's first view shows, in one call
 */

import "server-only";
import type { Db } from "../search-index/db";
import { type ActivityReport, activityByDay } from "./activity";
import type { ChatsFilter } from "./links";
import { type MemoryInsights, memoryInsights } from "./memory";
import type { InsightsFilter } from "./scope";
import { type ChatStorageRow, type StorageReport, type StorageSums, storageReport } from "./storage";
import {
  type ChatUsage,
  type FolderUsage,
  type Period,
  type PeriodReport,
  usageByChat,
  usageByFolder,
  usageByPeriod,
} from "./usage";

export { type ActivityDay, type ActivityReport, activityByDay, type FolderChats } from "./activity";
export {
  type ChatsFilter,
  dayFilter,
  describeChatsFilter,
  filteredChatsHref,
  folderChatsFilter,
  folderFilter,
  type ListFilter,
  listHref,
  modelFilter,
  periodFilter,
  readChatsFilter,
  scopeFilter,
  startedDayFilter,
  storageFilter,
} from "./links";
export { type MemoryInsights, memoryInsights, type SetCounts } from "./memory";
export type { InsightsFilter } from "./scope";
export {
  describeStartedDays,
  readStarted,
  type StartedDays,
  startedParam,
  startedQuarters,
  startedWithin,
  startedZone,
} from "./started";
export {
  type ChatStorageRow,
  type FolderStorage,
  type GenerationStorage,
  type StorageReport,
  type StorageSums,
  storageReport,
} from "./storage";
export { checkTimeZone, systemTimeZone } from "./tz";
export {
  type ChatUsage,
  type FolderUsage,
  formatOneNote,
  type ModelBreakdown,
  type Period,
  type PeriodReport,
  type PeriodRow,
  type ReportScope,
  type UsageSums,
  usageByChat,
  usageByFolder,
  usageByPeriod,
} from "./usage";

/**
 * Every chat an Insights total sums (the chat list's filtered view), with the
 * page's own per-chat rules: their sums add up to the total that links to them.
 */
export function chatsForFilter(db: Db, f: ChatsFilter): ReturnType<typeof usageByChat> {
  return usageByChat(
    db,
    { since: f.from, until: f.to, model: f.model || undefined, withoutModel: f.model === "", cwd: f.cwd, tz: f.tz },
    0,
  );
}

/**
 * Every chat a storage total sums (`sum: "bytes"`: all chats of the filter's folder), largest first, with the
 * storage report's own sums: the chats' bytes add up to the total that linked here.
 */
export function storageChatsForFilter(db: Db, f: ChatsFilter): { chats: ChatStorageRow[]; totals: StorageSums } {
  const report = storageReport(db, { cwd: f.cwd, limit: Number.MAX_SAFE_INTEGER });
  return { chats: report.largest, totals: report.totals };
}

/** Everything the Insights page shows at once. */
export interface InsightsOverview {
  usage: PeriodReport;
  chats: ChatUsage[];
  folders: FolderUsage[];
  activity: ActivityReport;
  storage: StorageReport;
  /** Null when there is no Oda home to read memories from. */
  memory: MemoryInsights | null;
  /** Models and working folders present in the index, for the filters. */
  models: string[];
  cwds: (string | null)[];
}

/** The page's first view: every report for one filter, from one index connection. */
export async function insightsOverview(
  db: Db,
  home: string | null,
  filter: InsightsFilter & { period?: Period },
): Promise<InsightsOverview> {
  const period = filter.period ?? "daily";
  const usage = usageByPeriod(db, period, filter);
  const unfiltered = !filter.since && !filter.until && filter.cwd === undefined && !filter.model;
  // Unfiltered, the totals already name every model; a filter may hide some from them, so the index is asked.
  const models = unfiltered
    ? usage.totals.modelBreakdowns
        .map((m) => m.modelName)
        .filter((m) => m !== "")
        .sort()
    : (db.prepare("SELECT DISTINCT model FROM usage WHERE model <> '' ORDER BY model").pluck().all() as string[]);
  const cwds = db.prepare("SELECT DISTINCT cwd FROM chats ORDER BY cwd").pluck().all() as (string | null)[];
  return {
    usage,
    chats: usageByChat(db, filter, 20).chats,
    folders: usageByFolder(db, filter).folders,
    activity: activityByDay(db, filter, period === "daily" ? usage.rows : undefined),
    storage: storageReport(db, { cwd: filter.cwd }),
    memory: home ? await memoryInsights(home) : null,
    models,
    cwds,
  };
}
