import "server-only";
import { z } from "zod";
import { filterRows, formatOptions, groupOptions, inGroups, keepsAll, type ListFilters } from "@/lib/chats/list-filter";
import { CHAT_SORT_KEYS, type ChatSort, type ChatWindow } from "@/lib/chats/views";
import { noteCounts } from "@/lib/notes";
import {
  type ChatFacts,
  indexRefreshedAt,
  readIndexedChatFacts,
  readIndexedChats,
  readIndexedWholeHead,
  readIndexedWholePlaces,
  type WholeHead,
} from "@/lib/search-index";
import type { SourceContext } from "@/server/source/context";
import { listingsStarted, logFolder, toRow, withNotes } from "./chat-list";

/**
 * The chat list read a window at a time from the search index (issue 28): the
 * page holds only the rows in view, and asks for the places it scrolls to.
 * The server keeps, per index, every chat's short facts in the table's order
 * (`lib/search-index/chat-facts.ts`) and the places the filters keep, so each
 * window is a slice of those places and one query for their rows. A filter or
 * a sort is a pass over the facts, not a sort of 100,000 rows in the browser.
 */

/** The most rows one window holds. */
export const WINDOW_ROWS = 500;

export const ZChatWindow = z
  .object({
    /**
     * The listing (`ChatListBatch.paged.view`) the window belongs to: a new listing reads the facts again. A
     * window with no filter is read from the index's own indexes, whatever its listing (the page asks for the
     * first one with "" before its listing has answered).
     */
    view: z.string().max(64),
    sort: z.enum(CHAT_SORT_KEYS),
    dir: z.enum(["asc", "desc"]),
    grouped: z.boolean(),
    filters: z.object({
      group: z.string().max(4096),
      lock: z.string().max(16),
      problemsOnly: z.boolean(),
      format: z.string().max(64),
      find: z.string().max(1000),
      started: z.string().max(200),
      // The page sends its own zone when the URL names none: the server's would be another day's hours.
      tz: z.string().max(100),
    }),
    from: z.number().int().min(0),
    to: z.number().int().min(0),
  })
  .refine((w) => w.to >= w.from && w.to - w.from <= WINDOW_ROWS, {
    message: `A window holds at most ${WINDOW_ROWS} rows.`,
  });

type WindowInput = z.infer<typeof ZChatWindow>;

/** One index's facts in one order, what they say of the whole list, and the places the last filters kept. */
interface Held {
  key: string;
  refreshedAt: string | null;
  facts: ChatFacts[];
  whole: Pick<ChatWindow, "total" | "withProblems" | "groupOptions" | "formats">;
  kept: { key: string; places: ChatFacts[]; groups: ChatWindow["groups"] } | null;
}

/** Per state folder (one index each), the facts held for the last listing read from it. */
const held = new Map<string, Held>();

/**
 * Per state folder, the whole list's head, read again after a refresh of the index or once a listing started
 * since (its locks judged again then): not at each window, each of which read every group's count again.
 */
const heads = new Map<string, { key: string; head: WholeHead }>();

function wholeHead(state: string, logDir: string, refreshedAt: string): WholeHead {
  const key = `${refreshedAt}\u0000${listingsStarted()}`;
  const have = heads.get(state);
  if (have?.key === key) return have.head;
  const head = readIndexedWholeHead(state, logDir);
  heads.set(state, { key, head });
  return head;
}

/** Facts not read for this long are let go: 100,000 chats' are about 30 MB of the server's heap. */
export const FACTS_KEPT_MS = 60_000;

const letGo = new Map<string, NodeJS.Timeout>();

/** Lets the facts of `state` go `FACTS_KEPT_MS` after their last read (a read puts it off again). */
function keepFor(state: string): void {
  clearTimeout(letGo.get(state));
  const timer = setTimeout(() => {
    held.delete(state);
    letGo.delete(state);
  }, FACTS_KEPT_MS);
  // An idle server exits without waiting for it.
  timer.unref();
  letGo.set(state, timer);
}

/** True while the facts of the index in `state` are held (for tests). */
export function factsHeld(state: string): boolean {
  return held.has(state);
}

/** The facts for this listing and order under the refresh `refreshedAt`: those held, or read again. */
function factsFor(state: string, logDir: string, view: string, order: ChatSort, refreshedAt: string): Held {
  keepFor(state);
  const key = `${view}\u0000${order.key}\u0000${order.dir}`;
  const have = held.get(state);
  if (have && have.key === key && have.refreshedAt === refreshedAt) return have;
  const read = readIndexedChatFacts(state, logDir, order);
  const facts = read.facts;
  const next: Held = {
    key,
    refreshedAt: read.refreshedAt,
    facts,
    whole: {
      total: facts.length,
      withProblems: facts.reduce((n, f) => n + (f.problems.length > 0 ? 1 : 0), 0),
      groupOptions: groupOptions(facts),
      formats: formatOptions(facts),
    },
    kept: null,
  };
  held.set(state, next);
  return next;
}

/** The chats the filters keep, in order; grouped, group after group (working folders A to Z, `_no-cwd` last). */
function keptBy(key: string, facts: ChatFacts[], filters: ListFilters, grouped: boolean): NonNullable<Held["kept"]> {
  const kept = filterRows(facts, filters);
  if (!grouped) return { key, places: kept, groups: null };
  const groups = inGroups(kept);
  return {
    key,
    places: groups.flatMap((g) => g.rows),
    groups: groups.map((g) => ({ group: g.group, label: g.label, count: g.rows.length })),
  };
}

/** What the page shows when the index cannot serve the list: it lists the folder instead. */
const NOT_BUILT: ChatWindow = {
  built: false,
  refreshedAt: null,
  total: 0,
  shown: 0,
  withProblems: 0,
  groupOptions: [],
  formats: [],
  groups: null,
  from: 0,
  rows: [],
};

/** The window `from`–`to` of the chat list as filtered, sorted and grouped, with the list's counts. */
export function readChatWindow(ctx: SourceContext, input: WindowInput): ChatWindow {
  const folder = logFolder(ctx);
  const state = ctx.roots.state;
  if (!folder || !state) return NOT_BUILT;
  const { logDir } = folder;
  const refreshedAt = indexRefreshedAt(state, logDir);
  if (refreshedAt === null) return NOT_BUILT;
  const order = { key: input.sort, dir: input.dir };
  const to = input.to;
  let head: Omit<ChatWindow, "built" | "refreshedAt" | "from" | "rows">;
  let cids: number[];
  if (keepsAll(input.filters)) {
    // No filter (the list as it opens): from the index's own indexes, without every chat's facts.
    const { groups, ...whole } = wholeHead(state, logDir, refreshedAt);
    head = { ...whole, shown: whole.total, groups: input.grouped ? groups : null };
    cids = readIndexedWholePlaces(state, logDir, { order, groups: head.groups, from: input.from, to });
  } else {
    const h = factsFor(state, logDir, input.view, order, refreshedAt);
    const kept = `${JSON.stringify(input.filters)}\u0000${input.grouped}`;
    if (h.kept?.key !== kept) h.kept = keptBy(kept, h.facts, input.filters, input.grouped);
    head = { ...h.whole, shown: h.kept.places.length, groups: h.kept.groups };
    cids = h.kept.places.slice(input.from, Math.min(to, h.kept.places.length)).map((f) => f.cid);
  }
  const notes = noteCounts(state);
  const rows = readIndexedChats(state, logDir, cids).map((c) => withNotes(toRow(c), notes));
  return { built: true, refreshedAt, ...head, from: input.from, rows };
}
