import { readFileSync } from "node:fs";

/**
 * A process's resident memory by kind, read once from `/proc/<pid>/smaps` (tens of milliseconds for a server's
 * few thousand mappings: read it at a peak or an idle figure, never every second beside a timed step).
 * - `arenas`: glibc's heaps of threads other than the main one (a `rw-p` anonymous mapping at a 64 MiB boundary,
 *   followed by its reserved `---p` rest);
 * - `mainArena`: `[heap]`, glibc's main arena (the main thread's native allocations);
 * - `files`: file-backed mappings (the node binary, its libraries, native addons);
 * - `stacks`: `[stack]` and the threads' stacks (anonymous mappings right after a guard page);
 * - `otherAnon`: every other anonymous mapping: V8's heap pages and large objects, zstd's buffers mapped on
 *   their own, and anything else mapped without a name.
 */
export interface SmapsKinds {
  arenas: number;
  mainArena: number;
  files: number;
  otherAnon: number;
  total: number;
}

const ARENA_ALIGN = 64 * 2 ** 20;

export function smapsKinds(pid: number): SmapsKinds | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, "utf8");
  } catch {
    return null;
  }
  const kib: SmapsKinds = { arenas: 0, mainArena: 0, files: 0, otherAnon: 0, total: 0 };
  let kind: keyof SmapsKinds = "otherAnon";
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      const start = Number.parseInt(head[1] as string, 16);
      const name = head[5] ?? "";
      if (name === "[heap]") kind = "mainArena";
      else if (name.startsWith("/")) kind = "files";
      else if (!name && head[3] === "rw-p" && start % ARENA_ALIGN === 0) kind = "arenas";
      else kind = "otherAnon";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) {
      kib[kind] += Number(rss[1]);
      kib.total += Number(rss[1]);
    }
  }
  for (const key of Object.keys(kib) as (keyof SmapsKinds)[]) kib[key] = Math.round(kib[key] / 1024);
  return kib;
}

/** `smapsKinds` as one line of MiB figures. */
export function smapsLine(kinds: SmapsKinds | null): string {
  if (!kinds) return "(smaps not readable)";
  return `total ${kinds.total} MiB: arenas ${kinds.arenas}, main arena ${kinds.mainArena}, other anonymous (V8 heaps, big buffers) ${kinds.otherAnon}, files ${kinds.files}`;
}
