import { type DeletedMemory, listDeleted } from "./deleted";
import { findMemory } from "./details";
import type { Limits } from "./limits";
import { listSet, type MemorySet } from "./list-set";
import { listWorkspaces } from "./listing-cache";
import type { WorkspaceKey } from "./names";
import { type TokenBudget, tokenBudgets } from "./payload";
import { type HomeProblem, listAllProblems } from "./problems";
import { readSettings, type SettingsProblem } from "./settings";

/**
 * Aggregations over the whole Oda home, shared by the Memory pages, Home and
 * the CLI, so that "every set", "every deleted memory" and "every problem"
 * are read one way only.
 */

/** Every set (global first) with its memories, problems and ignored files, the chats' budgets and the settings. */
export interface MemoryOverview {
  sets: MemorySet[];
  budgets: TokenBudget[];
  limits: Limits;
  settingsProblems: SettingsProblem[];
}

/** The keys of every set, the global set (null) first. */
export async function listSetKeys(home: string): Promise<WorkspaceKey[]> {
  return [null, ...(await listWorkspaces(home))];
}

/** Reads every set of the home with the settings' limits, and what a chat in each workspace receives. */
export async function memoryOverview(home: string): Promise<MemoryOverview> {
  const settings = await readSettings(home);
  const keys = await listSetKeys(home);
  const sets = await Promise.all(keys.map((k) => listSet(home, k, { limits: settings.limits })));
  return { sets, budgets: await tokenBudgets(home), limits: settings.limits, settingsProblems: settings.problems };
}

/** What Home shows of the memory: how many memories (and how many on), workspaces and problems. */
export interface MemoryCounts {
  memories: number;
  enabled: number;
  workspaces: number;
  problems: number;
}

/** Counts every set's memories and every problem under the home. */
export async function memoryCounts(home: string): Promise<MemoryCounts> {
  const { limits } = await readSettings(home);
  const keys = await listSetKeys(home);
  const sets = await Promise.all(keys.map((k) => listSet(home, k, { limits })));
  const all = sets.flatMap((s) => s.memories);
  return {
    memories: all.length,
    enabled: all.filter((m) => m.enabled).length,
    workspaces: keys.length - 1,
    problems: (await listAllProblems(home)).length,
  };
}

/** Every deleted memory of every set, newest deletion first. */
export async function listAllDeleted(home: string): Promise<DeletedMemory[]> {
  const keys = await listSetKeys(home);
  const all = (await Promise.all(keys.map((ws) => listDeleted(home, ws)))).flat();
  return all.sort((a, b) => (a.deletedAt < b.deletedAt ? 1 : a.deletedAt > b.deletedAt ? -1 : 0));
}

/** A problem with the file it concerns, as the raw editor needs it (null for settings and unreadable sets). */
export interface ProblemFile extends Omit<HomeProblem, "line"> {
  line: number | null;
  raw: string | null;
  sha256: string | null;
}

/** Every problem under the home, each memory file's raw text and sha256 beside it for a fix in place. */
export async function listProblemFiles(home: string): Promise<ProblemFile[]> {
  const problems = await listAllProblems(home);
  return Promise.all(
    problems.map(async (p) => {
      // A file that cannot be opened at all (gone since, or refused) still lists its problem, without an editor.
      const file = p.id === null ? null : await findMemory(home, p.workspace, p.id).catch(() => null);
      return { ...p, line: p.line ?? null, raw: file?.raw ?? null, sha256: file?.sha256 ?? null };
    }),
  );
}
