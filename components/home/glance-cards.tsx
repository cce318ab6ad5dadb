import Link from "next/link";
import { memoryCounts } from "@/lib/memory";
import type { Roots } from "@/lib/roots";
import { walkLogFolder } from "@/lib/sessions";

interface Glance {
  label: string;
  href: string;
  facts: string[];
  problems: { count: number; href: string; noun: string } | null;
  error?: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

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
      problems: { count: problems, href: "/memory/problems", noun: "problem file" },
    };
  } catch {
    return { ...base, facts: [], problems: null, error: "The Oda home could not be read." };
  }
}

function chatsGlance(logs: string | null): Glance {
  const base = { label: "Chats", href: "/chats" };
  if (!logs) return { ...base, facts: ["No log folder was given."], problems: null };
  try {
    const walk = walkLogFolder(logs);
    const groups = new Set(walk.chats.map((c) => c.group)).size;
    return {
      ...base,
      facts: [plural(walk.chats.length, "chat"), `in ${plural(groups, "working folder group")}`],
      problems: { count: walk.problems.length, href: "/chats?problems=1", noun: "folder problem" },
    };
  } catch {
    return { ...base, facts: [], problems: null, error: "The log folder does not exist yet or cannot be read." };
  }
}

/** The start page's summary: what is in each root, and how many problems need a look. */
export async function GlanceCards({ roots }: { roots: Roots }) {
  const cards = [await memoryGlance(roots.home), chatsGlance(roots.logs)];
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
            {card.problems && (
              <li>
                {card.problems.count === 0 ? (
                  "No problems found."
                ) : (
                  <Link href={card.problems.href} className="font-medium text-red-700 underline dark:text-red-300">
                    {plural(card.problems.count, card.problems.noun)} to look at
                  </Link>
                )}
              </li>
            )}
          </ul>
        </section>
      ))}
    </div>
  );
}
