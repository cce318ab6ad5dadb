import { type ReactNode, Suspense } from "react";
import { Link } from "@/components/ui/link";
import { Time } from "@/components/ui/time";
import { memoryCounts } from "@/lib/memory";
import { supportPages } from "@/lib/routes";
import { plural } from "@/lib/words";
import type { SourceContext } from "@/server/source/context";
import { chatsGlanceFromIndex, folderGlanceInWorker } from "@/server/views/home-glance";
import { countProblemChats } from "@/server/views/problem-chats";

interface ProblemCount {
  count: number;
  href: string;
  label: string;
}

interface Glance {
  label: string;
  href: string;
  facts: string[];
  /**
   * Each kind of problem with its count; null when the root could not be read. A promise when a count takes a
   * listing of every chat (no search index yet): the rest of the page is shown meanwhile.
   */
  problems: ProblemCount[] | null | Promise<ProblemCount[] | null>;
  error?: string;
  /** Where the numbers come from, when that needs saying (the search index, and its check). */
  note?: ReactNode;
}

async function memoryGlance(home: string | null): Promise<Glance> {
  const base = { label: "Memory", href: "/memory" };
  if (!home) return { ...base, facts: ["No Oda home was given."], problems: null };
  try {
    const { memories, enabled, workspaces, problems } = await memoryCounts(home);
    return {
      ...base,
      facts: [
        `${plural(memories, "memory", "memories")}, ${enabled} on`,
        `global set and ${plural(workspaces, "workspace")}`,
      ],
      problems: [problemsOf(problems, "/memory/problems", "problem file")],
    };
  } catch {
    return { ...base, facts: [], problems: null, error: "The Oda home could not be read." };
  }
}

function problemsOf(count: number, href: string, one: string, many = `${one}s`) {
  return { count, href, label: plural(count, one, many) };
}

/**
 * Says whether the index's numbers still hold, once the decode worker has compared it with the log folder;
 * when the folder changed, the count of chats with problems once the index is brought up to date.
 */
async function IndexChecked({ recounted }: { recounted: Promise<number | null | undefined> }) {
  const count = await recounted.catch(() => undefined);
  if (count === null) return <>Checked against the log folder just now: current.</>;
  if (count === undefined)
    return <>The log folder changed since, and the search index could not be brought up to date.</>;
  return (
    <>
      The log folder changed since; brought up to date now:{" "}
      {count === 0 ? (
        "no chat with problems."
      ) : (
        <Link href="/chats?problems=1" className="font-medium text-red-700 underline dark:text-red-300">
          {plural(count, "chat with problems", "chats with problems")} to look at
        </Link>
      )}
    </>
  );
}

/** The chats' numbers from the search index: no listing of the log folder per load. */
function chatsGlanceOfIndex(
  base: { label: string; href: string },
  found: NonNullable<ReturnType<typeof chatsGlanceFromIndex>>,
): Glance {
  const { glance, recounted } = found;
  const folderProblems = glance.folderProblemKinds.filter((k) => k !== "system").length;
  const unreadable = glance.folderProblemKinds.length - folderProblems;
  return {
    ...base,
    facts: [plural(glance.chats, "chat"), `in ${plural(glance.groups, "working folder group")}`],
    problems: [
      problemsOf(glance.problemChats, "/chats?problems=1", "chat with problems", "chats with problems"),
      problemsOf(folderProblems, "/chats?problems=1", "folder problem"),
      problemsOf(
        unreadable,
        supportPages.doctor,
        "folder that could not be read (its chats are left out)",
        "folders that could not be read (their chats are left out)",
      ),
    ],
    note: (
      <>
        As the search index has them
        {glance.refreshedAt ? (
          <>
            {" "}
            (brought up to date <Time iso={glance.refreshedAt} />)
          </>
        ) : null}
        .{" "}
        <Suspense fallback="Checking them against the log folder…">
          <IndexChecked recounted={recounted} />
        </Suspense>
      </>
    ),
  };
}

async function chatsGlance(ctx: SourceContext): Promise<Glance> {
  const logs = ctx.roots.logs;
  const base = { label: "Chats", href: "/chats" };
  if (!logs) return { ...base, facts: ["No log folder was given."], problems: null };
  const fromIndex = chatsGlanceFromIndex(ctx);
  if (fromIndex) return chatsGlanceOfIndex(base, fromIndex);
  try {
    const walk = await folderGlanceInWorker(logs);
    const folderProblems = [
      problemsOf(walk.problems.filter((p) => p.kind !== "system").length, "/chats?problems=1", "folder problem"),
      // A group the system would not list: its chats are not in the counts above (the doctor names it).
      problemsOf(
        walk.problems.filter((p) => p.kind === "system").length,
        supportPages.doctor,
        "folder that could not be read (its chats are left out)",
        "folders that could not be read (their chats are left out)",
      ),
    ];
    // A chat's own problems count as well as the folder's: a form change can make every chat one. Without a
    // built index that is a listing of every chat (minutes at 100,000 chats, the first time): it comes later.
    const problems = countProblemChats(ctx).then(
      (count) => [
        problemsOf(count, "/chats?problems=1", "chat with problems", "chats with problems"),
        ...folderProblems,
      ],
      () => null,
    );
    return {
      ...base,
      facts: [plural(walk.chats, "chat"), `in ${plural(walk.groups, "working folder group")}`],
      problems,
    };
  } catch {
    return { ...base, facts: [], problems: null, error: "The log folder does not exist yet or cannot be read." };
  }
}

/** Each kind of problem with a count as a link to where it is, or that none was found. */
function ProblemList({ problems }: { problems: ProblemCount[] | null }) {
  return (
    <>
      {problems?.every((p) => p.count === 0) && <li>No problems found.</li>}
      {problems
        ?.filter((p) => p.count > 0)
        .map((p) => (
          <li key={p.label}>
            <Link href={p.href} className="font-medium text-red-700 underline dark:text-red-300">
              {p.label} to look at
            </Link>
          </li>
        ))}
    </>
  );
}

/** The problems once counted; when they could not be, says so. */
async function ProblemItems({ problems }: { problems: Promise<ProblemCount[] | null> }) {
  const counted = await problems;
  if (!counted)
    return <li className="text-red-700 dark:text-red-300">The chats with problems could not be counted.</li>;
  return <ProblemList problems={counted} />;
}

/** The start page's summary: what is in each root, and how many problems need a look. */
export async function GlanceCards({ ctx }: { ctx: SourceContext }) {
  const cards = await Promise.all([memoryGlance(ctx.roots.home), chatsGlance(ctx)]);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {cards.map((card) => (
        <section
          key={card.label}
          aria-labelledby={`glance-${card.label}`}
          className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
        >
          <h2 id={`glance-${card.label}`} className="text-lg font-semibold">
            <Link href={card.href} className="text-blue-700 underline dark:text-blue-300">
              {card.label}
            </Link>
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            {card.facts.map((fact) => (
              <li key={fact}>{fact}</li>
            ))}
            {card.error && <li className="text-red-700 dark:text-red-300">{card.error}</li>}
            {card.note && <li className="text-zinc-700 dark:text-zinc-300">{card.note}</li>}
            {card.problems instanceof Promise ? (
              <Suspense fallback={<li>Counting the chats with problems…</li>}>
                <ProblemItems problems={card.problems} />
              </Suspense>
            ) : (
              <ProblemList problems={card.problems} />
            )}
          </ul>
        </section>
      ))}
    </div>
  );
}
