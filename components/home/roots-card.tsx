import { stat } from "node:fs/promises";
import type { Roots } from "@/lib/roots";

async function describeFolder(path: string | null): Promise<string> {
  if (!path) return "not set";
  try {
    const s = await stat(path);
    return s.isDirectory() ? "found" : "not a folder";
  } catch {
    return "does not exist yet";
  }
}

/** The folders this dashboard serves, and whether each exists. */
export async function RootsCard({ roots }: { roots: Roots }) {
  const rows = [
    { label: "Oda home", path: roots.home, hint: "memory sets, their history and settings.json" },
    { label: "Log folder", path: roots.logs, hint: "every chat's log" },
    { label: "Admin state", path: roots.state, hint: "this dashboard's own index" },
  ];
  const states = await Promise.all(rows.map((r) => describeFolder(r.path)));
  return (
    <section aria-labelledby="roots-heading" className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 id="roots-heading" className="text-lg font-semibold">
        Folders {roots.demo && <span className="text-sm font-normal">(demo data)</span>}
      </h2>
      <dl className="mt-3 grid gap-3 sm:grid-cols-[10rem_1fr]">
        {rows.map((row, i) => (
          <div key={row.label} className="contents">
            <dt className="font-medium">{row.label}</dt>
            <dd className="min-w-0">
              <code className="break-all">{row.path ?? "—"}</code>{" "}
              <span className="text-sm text-zinc-700 dark:text-zinc-300">
                ({states[i]}; {row.hint})
              </span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
