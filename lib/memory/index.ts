/**
 * The memory store: the one code path for the dashboard, the CLI, the demo
 * generator and the tests (`docs/file-contract.md`, Memories).
 *
 * Browser-safe parts (no `node:*`) can be imported on their own from
 * `@/lib/memory/format` (with `@/lib/memory/limits`, `@/lib/memory/messages`,
 * `@/lib/memory/names`, `@/lib/memory/parse`); everything else here is Node-only.
 *
 * Every function takes the Oda home; `workspace` is a key, or null for the
 * global set. Ids and keys are checked against the contract's patterns before
 * any file call; refusals throw `OdaError` whose message is the exact sentence.
 */

// Node-side

import "server-only";

export { type BulkAction, type BulkResult, type BulkTarget, bulkChange, undoBulk } from "./bulk";
export { BULK_ID_PATTERN } from "./bulk-journal";
export {
  type ChangeOptions,
  type ChangeResult,
  changeMemory,
  createMemory,
  deleteMemory,
  restoreDeleted,
  restoreVersion,
  saveRawMemoryFile,
  setEnabled,
  undoChatChange,
} from "./change";
export { type DeletedMemory, listDeleted } from "./deleted";
export { findMemory, type MemoryDetail, readMemory } from "./details";
export { type AffectedChat, type EditorContext, editorContext, type PayloadPiece } from "./editor-context";
// browser-safe
export {
  checkTitleAndText,
  countCodePoints,
  countUtf8Bytes,
  describePayloadNote,
  estimateTokens,
  FIELD_NAMES,
  type FieldProblem,
  type MemoryAuthor,
  type MemoryFields,
  normaliseText,
  normaliseTitle,
  type PayloadItem,
  renderPayload,
  SOURCE_WORDS,
  serialiseMemoryFile,
  VERSION_SOURCES,
  type VersionSource,
} from "./format";
export { type ChatTokens, chatPlace, fullestChat } from "./fullest";
export {
  type CurrentState,
  compactMoment,
  type DeletedMark,
  parseVersionName,
  type SavedState,
  type VersionName,
} from "./history";
export { checkLimitValue, DEFAULT_LIMITS, LIMIT_NAMES, LIMIT_RANGES, type LimitName, type Limits } from "./limits";
export { comparePayloadOrder, listSet, type MemorySet, type MemorySummary, type SetProblem } from "./list-set";
export { listWorkspaces } from "./listing-cache";
export { MESSAGES } from "./messages";
export {
  assertMemoryId,
  assertWorkspace,
  isMemoryId,
  isWorkspaceKey,
  MEMORY_ID_PATTERN,
  SHA256_PATTERN,
  WORKSPACE_KEY_PATTERN,
} from "./names";
export {
  listAllDeleted,
  listProblemFiles,
  listSetKeys,
  type MemoryCounts,
  type MemoryOverview,
  memoryCounts,
  memoryOverview,
  type ProblemFile,
} from "./overview";
export { type MemoryParse, type MemoryProblem, type ParsedMemory, parseMemoryFile, parseMemorySource } from "./parse";
export {
  buildPayload,
  type ChatPayload,
  chatPayload,
  checkTokenLimit,
  type ExcludedMemory,
  payloadNote,
  type TokenBudget,
  tokenBudgets,
} from "./payload";
export { type PayloadChange, type PayloadPreview, previewPayloadChange } from "./preview";
export { type HomeProblem, listAllProblems } from "./problems";
export { type ChatMemory, chatMemories } from "./provenance";
export { ZMemoryId, ZMemoryRef, ZSha256, ZVersionName, ZWorkspace } from "./schemas";
export { readSettings, type Settings, type SettingsProblem, writeSettings } from "./settings";
export { listVersions, readVersion, type VersionInfo } from "./versions";
export { createWorkspaceSet, noWorkspaceSet, requireWorkspaceSet, workspaceSetExists } from "./workspace-set";
