import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { readLockStatus } from "./lock";

/**
 * The names `withLockFile` (home-lock.ts) gives a lock while it creates one
 * (`<lock>.new-<hex>`, linked into place) or takes a stale one away
 * (`<lock>.stale-<hex>`, renamed aside) or sets a broken one aside (`<lock>.aside-<hex>`,
 * `lib/repair/home-lock.ts`): a process killed in between leaves
 * them, and nothing removes them afterwards.
 */
const LEFTOVER = /\.lock\.(new|stale|aside)-[0-9a-f]{12}$/;

/** What the doctor says of a temporary lock file left behind. */
export const LOCK_LEFTOVER_SENTENCE =
  "A temporary lock file left by an interrupted Oda Admin process; it locks nothing, and nothing removes it. Delete it when no Oda Admin process is running.";

/**
 * The temporary lock files left in `folders` (absolute), as doctor problems
 * with paths relative to `root`. Reported, never removed: a chat folder is
 * Oda's, changed only by a repair a person confirmed. One whose content names
 * a live process is a lock being made right now, and is left out.
 */
export function lockLeftoverProblems(root: string, folders: string[]): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue; // Gone or unreadable: the folder's own problem says so where it matters.
    }
    for (const name of names.filter((n) => LEFTOVER.test(n)).sort()) {
      const path = join(folder, name);
      const status = readLockStatus(path);
      if (status.state === "live" || status.state === "none") continue;
      problems.push({ path: relative(root, path), message: LOCK_LEFTOVER_SENTENCE });
    }
  }
  return problems;
}
