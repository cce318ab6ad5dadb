import "server-only";
import { z } from "zod";
import { isOdaError } from "@/lib/errors";
import {
  chatsForFilter,
  type InsightsOverview,
  insightsOverview,
  storageChatsForFilter,
  type usageByChat,
} from "@/lib/insights";
import type { ChatsFilter } from "@/lib/insights/links";
import { MISSING_ROOT } from "@/lib/roots";
import { handleOf } from "@/lib/search-index";
import { guardPage } from "@/server/access/guard";
import type { SourceContext } from "@/server/source/context";

/**
 * The Insights page's first view, server-rendered from the search index as it
 * is (the page's index panel refreshes it in the background and the page
 * re-renders when that ends): one call, every report, no log opened.
 */

const ZDay = z.string().regex(/^\d{4}-?\d{2}-?\d{2}$/);
const ZParams = z.object({
  since: ZDay.optional().catch(undefined),
  until: ZDay.optional().catch(undefined),
  cwd: z.string().max(4096).optional().catch(undefined),
  model: z.string().max(200).optional().catch(undefined),
  tz: z.string().max(100).optional().catch(undefined),
  period: z.enum(["daily", "weekly", "monthly"]).optional().catch(undefined),
});

/** The page's filters, read from its URL (unknown or malformed values are dropped). */
export type InsightsParams = z.infer<typeof ZParams>;

/** What the page renders: the overview, or the sentence saying why there is none. */
export type InsightsView =
  | { ok: true; params: InsightsParams; overview: InsightsOverview; ms: number }
  | { ok: false; params: InsightsParams; message: string };

/** Reads the filters from search params (first value of each; empty strings are "not set"). */
export function readInsightsParams(raw: Record<string, string | string[] | undefined>): InsightsParams {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const entries = Object.entries(raw)
    .map(([k, v]) => [k, first(v)] as const)
    // cwd "" means chats with no working folder; elsewhere an empty value is no filter.
    .filter(([k, v]) => v !== undefined && (v !== "" || k === "cwd"));
  const params = ZParams.parse(Object.fromEntries(entries));
  if (params.cwd === "*") delete params.cwd;
  return params;
}

/** The first view: every report for the filters, timed (the bench and the page's footer show it). */
export async function loadInsights(ctx: SourceContext, params: InsightsParams): Promise<InsightsView> {
  await guardPage();
  const roots = ctx.roots;
  if (!roots.logs) return { ok: false, params, message: MISSING_ROOT.logs };
  const started = performance.now();
  try {
    const db = handleOf(roots.state, roots.logs).db;
    const overview = await insightsOverview(db, roots.home, params);
    return { ok: true, params, overview, ms: Math.round(performance.now() - started) };
  } catch (error) {
    if (isOdaError(error)) return { ok: false, params, message: error.message };
    throw error;
  }
}

/** The chats behind an Insights total, with their sums, or the sentence saying why there are none. */
export type ChatsForTotalView =
  | { ok: true; kind: "usage"; filter: ChatsFilter; result: ReturnType<typeof usageByChat> }
  | { ok: true; kind: "bytes"; filter: ChatsFilter; result: ReturnType<typeof storageChatsForFilter> }
  | { ok: false; filter: ChatsFilter; message: string };

/**
 * Every chat an Insights total sums, for the chat list's filtered view: the
 * same per-chat rules as the page (`usageByChat` over the same filter), so
 * the sum of the chats listed is the total that linked here.
 */
export async function loadChatsForTotal(ctx: SourceContext, filter: ChatsFilter): Promise<ChatsForTotalView> {
  await guardPage();
  const roots = ctx.roots;
  if (!roots.logs) return { ok: false, filter, message: MISSING_ROOT.logs };
  try {
    const db = handleOf(roots.state, roots.logs).db;
    if (filter.sum === "bytes") return { ok: true, kind: "bytes", filter, result: storageChatsForFilter(db, filter) };
    return { ok: true, kind: "usage", filter, result: chatsForFilter(db, filter) };
  } catch (error) {
    if (isOdaError(error)) return { ok: false, filter, message: error.message };
    throw error;
  }
}
