import { Link } from "@/components/ui/link";
import type { SetProblem } from "@/lib/types";
import { withPageNumbers } from "./page-numbers";

/** Problem files with their exact messages; a link to the Problems page for the fixes. */
export function ProblemList({ problems, heading }: { problems: SetProblem[]; heading: string }) {
  if (problems.length === 0) return null;
  return (
    <section
      aria-label={heading}
      className="rounded-lg border border-amber-600 bg-amber-50 p-4 dark:border-amber-500 dark:bg-amber-950/40"
    >
      <h2 className="font-semibold">{heading}</h2>
      <ul className="mt-2 space-y-2 text-sm">
        {problems.map((p) => (
          <li key={p.path}>
            <code className="break-all">{p.path}</code>
            {p.line !== undefined ? ` (line ${p.line})` : ""}: <span>{withPageNumbers(p.message)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm">
        <Link href="/memory/problems" className="text-blue-800 underline dark:text-blue-300">
          See every problem and how to fix it
        </Link>
      </p>
    </section>
  );
}

/** Problems of settings.json: the sentence and the setting concerned. */
export function SettingsProblems({ problems }: { problems: { path: string; message: string; key?: string }[] }) {
  if (problems.length === 0) return null;
  return (
    <section
      aria-label="Settings problems"
      className="rounded-lg border border-amber-600 bg-amber-50 p-4 dark:border-amber-500 dark:bg-amber-950/40"
    >
      <h2 className="font-semibold">Settings problems</h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
        {problems.map((p) => (
          <li key={`${p.key ?? p.path}:${p.message}`}>{withPageNumbers(p.message)}</li>
        ))}
      </ul>
    </section>
  );
}
