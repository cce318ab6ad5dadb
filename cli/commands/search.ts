import { OdaError } from "../../lib/errors";
import { noteCounts } from "../../lib/notes";
import { requireRoot } from "../../lib/roots";
import {
  checkQuery,
  indexStatus,
  type RefreshResult,
  refreshIndex,
  SEARCH_ROLES,
  type SearchResult,
  searchChats,
} from "../../lib/search-index";
import { type Command, type CommandContext, flagString } from "../context";
import { reportLeftOut } from "../left-out";
import { logFolder } from "../log-folder";

/** The log folder, or a bad-input error telling how to give it. */
function logsOf(ctx: CommandContext): string {
  return requireRoot(ctx.roots, "logs");
}

/** A progress bar redrawn on a terminal's stderr; nothing when it is not a terminal, or with --json. */
function progressPrinter(ctx: CommandContext): ((done: number, total: number) => void) | undefined {
  const show = ctx.progress;
  if (!show) return undefined;
  return (done, total) => {
    if (!total) return;
    const fraction = done / total;
    const bar = `${"#".repeat(Math.round(fraction * 30)).padEnd(30, "-")}`;
    show(
      `indexing [${bar}] ${Math.round(fraction * 100)}%  ${done.toLocaleString("en")} / ${total.toLocaleString("en")} chats`,
      done === total,
    );
  };
}

function describeRefresh(r: RefreshResult): string {
  const parts = [
    `${r.chats} chats`,
    `${r.added} added`,
    `${r.changed} changed (${r.appended} only grew)`,
    `${r.removed} removed`,
    `${r.linesRead} lines read`,
    `${r.ms} ms`,
  ];
  const aside = r.setAside
    ? `\nThe old index could not be used (${r.setAside.reason}); it was removed and rebuilt.`
    : "";
  return `Index refreshed: ${parts.join(", ")}.${aside}`;
}

async function refreshWithProgress(ctx: CommandContext, logs: string): Promise<RefreshResult> {
  return refreshIndex(ctx.roots.state, logs, {
    compress: logFolder(ctx).compress,
    onProgress: progressPrinter(ctx),
  });
}

/** `oda-admin index refresh`: brings the index up to date, with progress on a terminal. */
const refresh: Command = async (ctx) => {
  const logs = logsOf(ctx);
  const result = await refreshWithProgress(ctx, logs);
  if (ctx.json) ctx.out(JSON.stringify({ ok: true, refresh: result, leftOut: result.unreadable.length }, null, 2));
  else ctx.out(describeRefresh(result));
  return reportLeftOut(ctx, result.unreadable);
};

/** `oda-admin index status`: where the index is, what it holds, whether it is current. */
const status: Command = async (ctx) => {
  const logs = logsOf(ctx);
  const s = await indexStatus(ctx.roots.state, logs);
  if (ctx.json) {
    ctx.out(JSON.stringify({ ok: true, status: s }, null, 2));
    return 0;
  }
  ctx.out(`Index: ${s.path} (${s.bytes.toLocaleString("en")} bytes)`);
  ctx.out(`  ${s.chats.toLocaleString("en")} chats, ${s.entries.toLocaleString("en")} searchable entries`);
  ctx.out(`  ${s.freshness.sentence}`);
  if (s.setAside) ctx.out(`  The old index could not be used (${s.setAside.reason}); it was removed and rebuilt.`);
  return 0;
};

function printResult(ctx: CommandContext, result: SearchResult): void {
  if (!result.groups.length) {
    ctx.out(`No chat mentions ${JSON.stringify(result.query)}.`);
    return;
  }
  ctx.out(
    `${result.moreHits ? "More than " : ""}${result.totalHits.toLocaleString("en")} matches in ${result.totalChats === null ? `more than ${result.groups.length}` : result.totalChats.toLocaleString("en")} chats (${result.ms} ms)${result.moreChats ? `; the ${result.groups.length} most recently active shown` : ""}:`,
  );
  for (const g of result.groups) {
    ctx.out(`\n${g.id}  ${g.title ?? "(untitled)"}  [${g.cwd ?? "no working folder"}]  ${g.count} matches`);
    for (const h of g.hits) {
      const text = h.snippet.map((p) => (p.hit ? `«${p.text}»` : p.text)).join("");
      ctx.out(`  line ${String(h.line).padStart(5)}  ${h.role.padEnd(9)} ${text.replace(/\s+/g, " ")}`);
    }
  }
}

/** `oda-admin search "<query>" [filters] [--no-refresh] [--json]`. */
const search: Command = async (ctx) => {
  const logs = logsOf(ctx);
  const query = ctx.args.join(" ");
  if (!query.trim()) throw new OdaError("bad_input", 'Give what to search for: oda-admin search "<query>".');
  // A query the search would refuse is refused before the refresh, not after it.
  checkQuery(query);
  const role = flagString(ctx, "role");
  if (role && !(SEARCH_ROLES as readonly string[]).includes(role))
    throw new OdaError("bad_input", `--role takes one of ${SEARCH_ROLES.join(", ")}.`);
  const chats = flagString(ctx, "chats");
  if (chats !== undefined && !/^\d+$/.test(chats)) throw new OdaError("bad_input", "--chats takes a whole number.");
  const refreshed = ctx.flags["no-refresh"] === true ? null : await refreshWithProgress(ctx, logs);
  const result = await searchChats(ctx.roots.state, logs, {
    query,
    cwd: flagString(ctx, "cwd") ?? null,
    role: role ?? null,
    since: flagString(ctx, "since") ?? null,
    until: flagString(ctx, "until") ?? null,
    problems: ctx.flags.problems === true,
    // Only chats with marks or notes in the admin state (issue 29).
    onlyChats: ctx.flags["with-notes"] === true ? [...noteCounts(requireRoot(ctx.roots, "state")).keys()] : null,
    chats: chats === undefined ? 50 : Number(chats),
  });
  if (ctx.json) {
    const groups = result.groups.map((g) => ({
      ...g,
      hits: g.hits.map((h) => ({
        ...h,
        text: h.snippet.map((p) => (p.hit ? `«${p.text}»` : p.text)).join(""),
        url: `/chats/${encodeURIComponent(g.id)}?line=${h.line}`,
      })),
    }));
    const leftOut = refreshed?.unreadable.length ?? 0;
    ctx.out(JSON.stringify({ ok: true, ...result, groups, refresh: refreshed, leftOut }, null, 2));
  } else printResult(ctx, result);
  return reportLeftOut(ctx, refreshed?.unreadable ?? []);
};

/** `search`, `index refresh` and `index status`; `cli/registry.ts` holds their usage and options. */
export const searchRuns = { search, "index refresh": refresh, "index status": status } satisfies Record<
  string,
  Command
>;
