/**
 * The shapes client components share with the server, in one place. Every
 * export is type-only, so importing from here pulls no module (and no
 * `node:fs`) into the browser bundle, whereas the modules that define them are
 * Node-only (`import "server-only"`). Client components import their types
 * from here, never from `lib/<domain>` barrels. Like the rest of `lib/`, it
 * imports nothing above it (the lint rule in `biome.json`); the read
 * registry's types (`ReadName`, `ReadData`), which the server's reads define,
 * are imported type-only from `server/reads` by the client modules that
 * read through GET.
 */

export type { ActivityBucket, ActivityItem, ActivityStrip } from "./chats/activity";
export type { TailReport } from "./chats/line-index";
// The server's views of a chat (its list rows, lines, lock and status) as its routes and actions return them.
export type {
  ChatListBatch,
  ChatListSource,
  ChatProblem,
  ChatRow,
  ChatSort,
  ChatSortKey,
  ChatWindow,
  LinesView,
  LineView,
  LockView,
  StatusView,
} from "./chats/views";
export type { ActivityReport } from "./insights/activity";
export type { MemoryInsights } from "./insights/memory";
export type { ChatStorageRow, StorageReport, StorageSums } from "./insights/storage";
export type { ChatUsage, FolderUsage, PeriodReport, UsageSums } from "./insights/usage";
export type { BulkAction, BulkResult, BulkTarget } from "./memory/bulk";
export type { MemoryDetail } from "./memory/details";
export type { VersionSource } from "./memory/format";
export type { LintFinding, LintMemory, LintReport } from "./memory/lint/types";
export type { MemorySet, SetProblem } from "./memory/list-set";
export type { ChangeResult } from "./memory/mutate";
export type { TokenBudget } from "./memory/payload";
export type { VersionInfo } from "./memory/versions";
export type { Repairable } from "./repair/problems";
export type { RepairPreview, RepairTarget } from "./repair/targets";
export type { SearchGroup, SearchResult, SnippetPart } from "./search-index/search";
