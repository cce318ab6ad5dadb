import { MomentText } from "@/components/ui/moment-text";
import type { ChatProblem } from "@/lib/types";

/** One problem sentence, with each `raw log: <path>` note on a line of its own. */
export function ProblemItem({ problem }: { problem: ChatProblem }) {
  return (
    <li className="break-words">
      <span>
        <MomentText text={problem.sentence} />
      </span>
      {problem.paths.map((path) => (
        <span key={path} className="block font-mono text-xs break-all text-red-900 dark:text-red-200">
          raw log: {path}
        </span>
      ))}
    </li>
  );
}

/** A list of problems in the danger tone; nothing when there are none. */
export function ProblemList({ problems, label }: { problems: ChatProblem[]; label: string }) {
  if (!problems.length) return null;
  return (
    <ul aria-label={label} className="space-y-1 text-sm text-red-900 dark:text-red-200">
      {problems.map((p) => (
        <ProblemItem key={`${p.kind}:${p.message}`} problem={p} />
      ))}
    </ul>
  );
}
