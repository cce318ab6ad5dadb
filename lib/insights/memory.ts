import { listSet, listWorkspaces, type TokenBudget, tokenBudgets } from "../memory";

/**
 * The memory side of Insights: what each workspace's chats receive against
 * `chatMaxTokens`, and how many memories each set holds, by source (`source:
 * user` or `ai`, the frontmatter field) and state.
 */

/** One set's memory counts (`workspace` null: the global set). */
export interface SetCounts {
  workspace: string | null;
  memories: number;
  enabled: number;
  disabled: number;
  /** By the frontmatter's `source`: saved by a person, or by the agent. */
  bySource: { user: number; ai: number };
  /** Files in the set that do not read as memories. */
  problems: number;
}

/** The memory report. */
export interface MemoryInsights {
  /** What a chat in each workspace (and with none) receives, against the limit. */
  budgets: TokenBudget[];
  sets: SetCounts[];
}

/** Reads every set of the Oda home (through the parse cache) and the token budgets. */
export async function memoryInsights(home: string): Promise<MemoryInsights> {
  const [budgets, keys] = await Promise.all([tokenBudgets(home), listWorkspaces(home)]);
  const sets = await Promise.all([null, ...keys].map((key) => listSet(home, key)));
  return {
    budgets,
    sets: sets.map((set) => {
      const enabled = set.memories.filter((m) => m.enabled).length;
      const ai = set.memories.filter((m) => m.author === "ai").length;
      return {
        workspace: set.workspace,
        memories: set.memories.length,
        enabled,
        disabled: set.memories.length - enabled,
        bySource: { user: set.memories.length - ai, ai },
        problems: set.problems.length,
      };
    }),
  };
}
