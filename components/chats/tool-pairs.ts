import type { LinesView } from "@/server/views/chat-inspector";

/** A tool call and its result, each with the line it is on (either may be outside the lines loaded so far). */
export interface ToolPair {
  call?: { n: number; name: string };
  result?: { n: number; content: unknown; isError: boolean };
}

export type ToolPairs = ReadonlyMap<string, ToolPair>;

const perPage = new WeakMap<LinesView, Map<string, ToolPair>>();

function pairsOfPage(page: LinesView): Map<string, ToolPair> {
  const known = perPage.get(page);
  if (known) return known;
  const pairs = new Map<string, ToolPair>();
  const at = (id: string): ToolPair => {
    const pair = pairs.get(id) ?? {};
    pairs.set(id, pair);
    return pair;
  };
  for (const line of page.lines) {
    // Only lines that could hold a tool part are parsed.
    if (line.error || !line.raw.includes('"tool_')) continue;
    let json: { content?: unknown };
    try {
      json = JSON.parse(line.raw);
    } catch {
      continue;
    }
    if (!Array.isArray(json.content)) continue;
    for (const part of json.content as Record<string, unknown>[]) {
      if (part?.type === "tool_use" && typeof part.id === "string")
        at(part.id).call = { n: line.n, name: typeof part.name === "string" ? part.name : "?" };
      if (part?.type === "tool_result" && typeof part.tool_use_id === "string")
        at(part.tool_use_id).result = { n: line.n, content: part.content, isError: part.is_error === true };
    }
  }
  perPage.set(page, pairs);
  return pairs;
}

/**
 * Tool calls paired with their results by id, over the pages loaded so far.
 * Each page is read once (its data never changes: full pages are final), so
 * scrolling costs a merge of small maps, not a parse of every line.
 */
export function toolPairs(pages: (LinesView | undefined)[]): ToolPairs {
  const all = new Map<string, ToolPair>();
  for (const page of pages) {
    if (!page) continue;
    for (const [id, pair] of pairsOfPage(page)) all.set(id, { ...all.get(id), ...pair });
  }
  return all;
}
