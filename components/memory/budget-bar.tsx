import type { TokenBudget } from "@/lib/types";
import { chatWhere } from "./names";

/**
 * What a chat receives against `chatMaxTokens`: the global part and the
 * workspace part in two shades, with the same figures as text for every reader.
 */
export function BudgetBar({ budget }: { budget: TokenBudget }) {
  const { globalTokens, workspaceTokens, tokens, limit } = budget;
  const scale = Math.max(limit, tokens);
  const pct = (n: number) => `${Math.min(100, (n / scale) * 100)}%`;
  const over = tokens > limit;
  const near = !over && tokens >= limit * 0.9;
  const where = chatWhere(budget.workspace);
  const summary =
    budget.workspace === null
      ? `${tokens.toLocaleString("en")} of ${limit.toLocaleString("en")} tokens (global memories only)`
      : `${tokens.toLocaleString("en")} of ${limit.toLocaleString("en")} tokens: ${globalTokens.toLocaleString("en")} global, ${workspaceTokens.toLocaleString("en")} from the workspace`;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap justify-between gap-x-3 text-sm">
        <span className="font-medium">A chat in {where}</span>
        <span className={over ? "font-semibold text-red-700 dark:text-red-400" : ""}>
          {summary}
          {over ? " — over the limit" : near ? " — near the limit" : ""}
        </span>
      </div>
      <div
        role="img"
        aria-label={`A chat in ${where}: ${summary}${over ? ", over the limit" : near ? ", near the limit" : ""}.`}
        className="flex h-3 overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800"
      >
        <div className="h-full bg-blue-700 dark:bg-blue-400" style={{ width: pct(globalTokens) }} />
        <div className="h-full bg-sky-400 dark:bg-sky-700" style={{ width: pct(Math.max(0, tokens - globalTokens)) }} />
      </div>
    </div>
  );
}

/** The legend of the two shades. */
export function BudgetLegend() {
  return (
    <p className="flex flex-wrap gap-4 text-xs text-zinc-700 dark:text-zinc-300">
      <span className="inline-flex items-center gap-1">
        <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm bg-blue-700 dark:bg-blue-400" /> Global
        memories
      </span>
      <span className="inline-flex items-center gap-1">
        <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm bg-sky-400 dark:bg-sky-700" /> Workspace
        memories
      </span>
    </p>
  );
}
