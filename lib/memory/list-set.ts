import type { MemoryAuthor } from "./format";
import type { Limits } from "./limits";
import { readSetFiles } from "./listing-cache";
import { checkWorkspace } from "./names";
import type { ParsedMemory } from "./parse";
import { relativeToHome } from "./paths";
import { countsOf, type ParsedFile } from "./read-file";
import { readSettings } from "./settings";

/** One memory of a set, as the list shows it. */
export interface MemorySummary {
  id: string;
  workspace: string | null;
  title: string;
  text: string;
  enabled: boolean;
  /** Who saved it: `ai` shows as "saved by the agent". */
  author: MemoryAuthor;
  sessionId?: string;
  created?: string;
  updated?: string;
  titleChars: number;
  textChars: number;
  bytes: number;
  tokens: number;
}

/** A memory file with a problem. `path` is relative to the Oda home. */
export interface SetProblem {
  id: string;
  path: string;
  message: string;
  /** The file's line the YAML parser named, when it named one. */
  line?: number;
  /** The system would not give the file: it is left out (`lib/fs/system-error.ts`). */
  unreadable?: true;
}

/** One set read from disk. */
export interface MemorySet {
  workspace: string | null;
  /** Problem-free memories, in payload order (created, then id). */
  memories: MemorySummary[];
  problems: SetProblem[];
  /** Names in the set folder that are not memories (temp files of interrupted saves excluded). */
  ignored: string[];
}

/** Payload order: by `created` (files without it last), then by id. */
export function comparePayloadOrder(a: { id: string; created?: string }, b: { id: string; created?: string }): number {
  const ta = a.created ? Date.parse(a.created) : Number.POSITIVE_INFINITY;
  const tb = b.created ? Date.parse(b.created) : Number.POSITIVE_INFINITY;
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function summarise(id: string, workspace: string | null, read: ParsedFile & { parse: ParsedMemory }): MemorySummary {
  const parse = read.parse;
  const f = parse.fields;
  const counts = countsOf(parse);
  const s: MemorySummary = {
    id,
    workspace,
    title: parse.title,
    text: parse.text,
    enabled: f.enabled,
    author: f.source,
    titleChars: counts.titleChars,
    textChars: counts.textChars,
    bytes: read.size,
    tokens: counts.tokens,
  };
  if (f.sessionId !== undefined) s.sessionId = f.sessionId;
  if (f.created !== undefined) s.created = f.created;
  if (f.updated !== undefined) s.updated = f.updated;
  return s;
}

/**
 * Lists a set (null = global): its memories, its problem files with the exact
 * messages, and the names that are not memories. Files unchanged since they
 * were last read come from the parse cache (see {@link readSetFiles}).
 * Symlinked entries are followed only when they stay inside the home.
 * Leftover temp files are ignored (and those older than a minute removed).
 */
export async function listSet(
  home: string,
  workspace: string | null,
  options: { limits?: Limits } = {},
): Promise<MemorySet> {
  const limits = options.limits ?? (await readSettings(home)).limits;
  const files = await readSetFiles(home, checkWorkspace(workspace), limits);
  const result: MemorySet = { workspace, memories: [], problems: [], ignored: files.ignored };
  for (const { name, read } of files.reads) {
    if (read.parse.ok) result.memories.push(summarise(name, workspace, read as ParsedFile & { parse: ParsedMemory }));
    else {
      const p: SetProblem = { id: name, path: relativeToHome(...files.segments, name), message: read.parse.message };
      if (read.parse.line !== undefined) p.line = read.parse.line;
      if (read.parse.unreadable) p.unreadable = true;
      result.problems.push(p);
    }
  }
  result.memories.sort(comparePayloadOrder);
  result.problems.sort((a, b) => (a.id < b.id ? -1 : 1));
  result.ignored.sort();
  return result;
}
