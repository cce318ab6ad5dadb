/**
 * `lib/repair`: guided, reversible repairs of what the dashboard diagnoses
 * (`docs/file-contract.md`, What Oda Admin itself writes). Every repair holds the
 * chat's `session.lock` (or the home's memory lock), keeps every replaced or
 * moved file byte for byte in `<state>/repairs/<id>/` with a journal, and can be
 * undone; an interrupted one is finished or rolled back by `resumeRepairs`.
 *
 * - `listRepairable(roots)`: every problem with a repair, and its id; `chatsRepairable(roots, ids)` the
 *   same for the chats named only, and `memoryRepairableReport(home)` for the memory only.
 * - `previewRepair(roots, target)` / `applyRepair(roots, target)`; `parseTarget("form:c-1")`.
 * - `undoRepair(state, id)`, `resumeRepairs(state, {dryRun})`, `listJournals(state)`.
 * - `compareCopies(logDir, id, compress)`: the two copies of a chat stored in two places.
 * - `runFormJob(...)`: converts every chat of the wrong form, resumable.
 */

import "server-only";

export { type ChatCopy, compareCopies } from "./compare";
export { type HomeLockSetAside, homeLockPath, setAsideHomeLock } from "./home-lock";
export { type FormJob, listJobs, runFormJob } from "./job";
export { type FileFact, type Journal, type JournalFile, listJournals, type RepairKind, readJournal } from "./journal";
export {
  chatsOfProblems,
  chatsRepairable,
  listRepairable,
  listRepairableReport,
  memoryRepairableReport,
  type Repairable,
  type RepairableReport,
  type SpaceReport,
  spaceReport,
} from "./problems";
export { type ResumeOutcome, resumeRepairs } from "./resume";
export {
  applyRepair,
  type PreviewChange,
  parseTarget,
  previewRepair,
  type RepairPreview,
  type RepairRoots,
  type RepairTarget,
  targetId,
} from "./targets";
export { undoRepair } from "./undo";
