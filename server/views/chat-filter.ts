import "server-only";
import { z } from "zod";
import { type ActivityItem, FILTER_CONTEXTS, type LineFilter } from "@/lib/chats";
import { requireLogFolder, type SourceContext } from "@/server/source/context";
import type { LineView } from "@/server/views/chat-inspector";
import { inWorker, streamInWorker } from "@/server/workers/log-worker";

/**
 * The log viewer's filters as the URL carries them (`?role=&tool=&problems=1&usage=1&q=&context=`), and
 * the reads behind them, on the decode worker.
 */

/** The filter's URL parameters; each is optional, an empty one is absent. */
export const ZFilterParams = z.object({
  role: z.enum(["user", "assistant", "system"]).optional().catch(undefined),
  tool: z.string().min(1).max(200).optional().catch(undefined),
  problems: z.literal("1").optional().catch(undefined),
  usage: z.literal("1").optional().catch(undefined),
  q: z.string().min(1).max(1000).optional().catch(undefined),
  /** The activity strip's time range: ISO times, `[after, before)`. */
  after: z.iso.datetime({ offset: true }).optional().catch(undefined),
  before: z.iso.datetime({ offset: true }).optional().catch(undefined),
  context: z.coerce
    .number()
    .int()
    .refine((n) => (FILTER_CONTEXTS as readonly number[]).includes(n))
    .optional()
    .catch(undefined),
});

/** The filter a set of URL parameters asks for, or null when none is set. */
export function filterOf(params: z.infer<typeof ZFilterParams>): LineFilter | null {
  const filter: LineFilter = {};
  if (params.role) filter.role = params.role;
  if (params.tool) filter.tool = params.tool;
  if (params.problems) filter.problems = true;
  if (params.usage) filter.usage = true;
  if (params.q) filter.text = params.q;
  if (params.after) filter.after = Date.parse(params.after);
  if (params.before) filter.before = Date.parse(params.before);
  return Object.keys(filter).length ? filter : null;
}

/** One line of a filtered page, as the page shows it. */
export interface FilteredLineView {
  line: LineView;
  why: "match" | "result" | "context";
  hiddenBefore: number;
}

/** One page of a filtered log, as the page shows it. */
export interface FilterPageView {
  lines: FilteredLineView[];
  matched: number;
  next: number | null;
  hiddenAfter: number;
  scannedTo: number;
}

/** A page of the chat's log filtered with context, from line `from`. */
export async function filteredFor(
  ctx: SourceContext,
  id: string,
  filter: LineFilter,
  options: { from: number; count: number; context: number; generation?: string },
): Promise<FilterPageView> {
  const { logDir, compress } = requireLogFolder(ctx);
  const page = await inWorker("filterLines", logDir, id, filter, { ...options, compress });
  return {
    ...page,
    lines: page.lines.map(({ line: l, why, hiddenBefore }) => {
      const line: LineView = { n: l.n, offset: l.offset, raw: l.raw };
      if (l.error) line.error = l.error;
      if (l.length !== undefined) line.length = l.length;
      return { line, why, hiddenBefore };
    }),
  };
}

/** The chat's activity strip: progress while its log is read on the decode worker, then the strip. */
export function activityFor(ctx: SourceContext, id: string, generation?: string): AsyncGenerator<ActivityItem> {
  const { logDir, compress } = requireLogFolder(ctx);
  return streamInWorker("chatActivity", logDir, id, { generation, compress });
}

/** The tools the chat's log calls, with counts, most called first. */
export async function toolsFor(ctx: SourceContext, id: string, generation?: string): Promise<[string, number][]> {
  const { logDir, compress } = requireLogFolder(ctx);
  return inWorker("toolCounts", logDir, id, { generation, compress });
}
