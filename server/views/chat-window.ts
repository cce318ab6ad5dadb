import "server-only";
import { z } from "zod";
import { keepsAll } from "@/lib/chats/list-filter";
import { CHAT_SORT_KEYS, type ChatWindow } from "@/lib/chats/views";
import { noteCounts } from "@/lib/notes";
import {
  indexRefreshedAt,
  readIndexedChats,
  readIndexedWholeHead,
  readIndexedWholePlaces,
  type WholeHead,
} from "@/lib/search-index";
import type { SourceContext } from "@/server/source/context";
import { listingsStarted, logFolder, toRow, withNotes } from "./chat-list";
import { factsFor, keptBy } from "./window-facts";

export { FACTS_KEPT_MS, factsHeld, factsReads } from "./window-facts";

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

/** The most reads of every chat's facts one window makes when the index is refreshed while they run. */
const READS_A_WINDOW = 3;

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

/**
 * The window `from`–`to` of the chat list as filtered, sorted and grouped, with the list's counts. `signal`:
 * the request's (`null`: it never abandons); once it aborts, no read of every chat's facts goes on for it.
 */
export async function readChatWindow(
  ctx: SourceContext,
  input: WindowInput,
  signal: AbortSignal | null = null,
): Promise<ChatWindow> {
  const folder = logFolder(ctx);
  const state = ctx.roots.state;
  if (!folder || !state) return NOT_BUILT;
  const { logDir } = folder;
  let refreshedAt = indexRefreshedAt(state, logDir);
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
    let h = await factsFor({ state, logDir, refreshedAt }, input.view, order, signal);
    // The facts are read over turns of the event loop: the index may have been refreshed, or set aside and
    // replaced by an empty one, meanwhile. The window says the refresh its places come from.
    for (let n = 1; ; n++) {
      const now = indexRefreshedAt(state, logDir);
      if (now === null) return NOT_BUILT;
      if (h.refreshedAt === now || n >= READS_A_WINDOW) break;
      refreshedAt = now;
      h = await factsFor({ state, logDir, refreshedAt }, input.view, order, signal);
    }
    refreshedAt = h.refreshedAt ?? refreshedAt;
    const kept = await keptBy(h, input.filters, input.grouped);
    head = { ...h.whole, shown: kept.places.length, groups: kept.groups };
    cids = kept.places.slice(input.from, Math.min(to, kept.places.length)).map((f) => f.cid);
  }
  const notes = noteCounts(state);
  const rows = readIndexedChats(state, logDir, cids).map((c) => withNotes(toRow(c), notes));
  return { built: true, refreshedAt, ...head, from: input.from, rows };
}
