import type { ChatProblem } from "@/lib/types";

const RAW_LOG = /\s?raw log: (.+)$/;

/** One problem sentence, with its `raw log: <path>` note on a line of its own. */
export function ProblemItem({ problem }: { problem: ChatProblem }) {
  const match = RAW_LOG.exec(problem.message);
  const sentence = match ? problem.message.slice(0, match.index) : problem.message;
  const paths = match ? [match[1] as string] : problem.paths;
  return (
    <li className="break-words">
      <span>{sentence}</span>
      {paths.map((path) => (
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
