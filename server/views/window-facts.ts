import "server-only";
import { filterRows, formatOptions, groupOptions, inGroups, type ListFilters } from "@/lib/chats/list-filter";
import type { ChatSort, ChatWindow } from "@/lib/chats/views";
import { type ChatFacts, type IndexedFacts, readIndexedChatFacts } from "@/lib/search-index";
import { shared } from "@/server/workers/coalesce";

/**
 * Every chat's short facts, held per index for the chat list's filtered windows (`chat-window.ts`): read once
 * per listing, order and refresh of the index however many windows ask meanwhile, and gone through in slices
 * of a few ms with turns of the event loop between them. At 100,000 chats the read alone was about a second of
 * the server's main thread in one piece, and every other request (a search, another tab, a window) waited.
 */

/** The places the filters keep, and the groups they fall in (grouped; else `null`). */
export interface Kept {
  places: ChatFacts[];
  groups: ChatWindow["groups"];
}

/** One index's facts in one order, what they say of the whole list, and the places the last filters kept. */
export interface Held {
  key: string;
  refreshedAt: string | null;
  facts: ChatFacts[];
  whole: Pick<ChatWindow, "total" | "withProblems" | "groupOptions" | "formats">;
  kept: { key: string; made: Promise<Kept> } | null;
}

/** Per state folder (one index each), the facts held for the last listing read from it. */
const held = new Map<string, Held>();
/** Per state folder, the listing and order a filtered window last asked for: a read of another ends unheld. */
const asked = new Map<string, string>();

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

let reads = 0;

/** How many reads of every chat's facts this process started (for tests). */
export function factsReads(): number {
  return reads;
}

/** Work between two turns of the event loop while the held facts are gone through, in ms. */
const SLICE_MS = 8;
/** Facts gone through between two looks at the clock. */
const FACTS_A_LOOK = 1024;

/** Calls `take` over `rows` a stretch at a time, with a turn of the event loop every `SLICE_MS`. */
async function inSlices<T>(rows: T[], take: (stretch: T[]) => void, signal: AbortSignal | null): Promise<void> {
  let end = performance.now() + SLICE_MS;
  for (let at = 0; at < rows.length; at += FACTS_A_LOOK) {
    take(rows.slice(at, at + FACTS_A_LOOK));
    if (performance.now() < end) continue;
    await new Promise<void>((next) => setImmediate(next));
    signal?.throwIfAborted();
    end = performance.now() + SLICE_MS;
  }
}

/** The facts and what they say of the whole list: each group's first chat gives its option, as over all. */
async function heldOf(key: string, read: IndexedFacts, signal: AbortSignal): Promise<Held> {
  const { facts } = read;
  let withProblems = 0;
  const firstOfGroup = new Map<string, ChatFacts>();
  const ofFormat = new Map<number | null, ChatFacts>();
  await inSlices(
    facts,
    (stretch) => {
      for (const f of stretch) {
        if (f.problems.length > 0) withProblems++;
        if (!firstOfGroup.has(f.group)) firstOfGroup.set(f.group, f);
        if (!ofFormat.has(f.format)) ofFormat.set(f.format, f);
      }
    },
    signal,
  );
  const whole = {
    total: facts.length,
    withProblems,
    groupOptions: groupOptions([...firstOfGroup.values()]),
    formats: formatOptions([...ofFormat.values()]),
  };
  return { key, refreshedAt: read.refreshedAt, facts, whole, kept: null };
}

/**
 * The facts of one listing and order under one refresh, read once however many windows ask while the read runs
 * (`shared`): the page asks for a few pages at once, each a request. A read whose windows have all gone (their
 * requests ended) stops at its next turn of the event loop.
 */
const readFacts = shared(
  (state: string, _logDir: string, key: string, _order: ChatSort, refreshedAt: string) =>
    `${state}\u0000${key}\u0000${refreshedAt}`,
  async (signal, state: string, logDir: string, key: string, order: ChatSort) => {
    reads++;
    const next = await heldOf(key, await readIndexedChatFacts(state, logDir, order, signal), signal);
    if (asked.get(state) === key) held.set(state, next);
    return next;
  },
);

/** The facts for this listing and order under the refresh `refreshedAt`: those held, or read again. */
export function factsFor(
  at: { state: string; logDir: string; refreshedAt: string },
  view: string,
  order: ChatSort,
  signal: AbortSignal | null,
): Promise<Held> {
  const { state, logDir, refreshedAt } = at;
  keepFor(state);
  const key = `${view}\u0000${order.key}\u0000${order.dir}`;
  asked.set(state, key);
  const have = held.get(state);
  if (have && have.key === key && have.refreshedAt === refreshedAt) return Promise.resolve(have);
  return readFacts(signal, state, logDir, key, order, refreshedAt);
}

/**
 * The chats the filters keep, in order; grouped, group after group (working folders A to Z, `_no-cwd` last).
 * Made once per filters for the facts held, in slices: the windows asking at once share it.
 */
export function keptBy(h: Held, filters: ListFilters, grouped: boolean): Promise<Kept> {
  const key = `${JSON.stringify(filters)}\u0000${grouped}`;
  if (h.kept?.key === key) return h.kept.made;
  const made = (async () => {
    const kept: ChatFacts[] = [];
    await inSlices(h.facts, (stretch) => kept.push(...filterRows(stretch, filters)), null);
    if (!grouped) return { places: kept, groups: null };
    const groups = inGroups(kept);
    return {
      places: groups.flatMap((g) => g.rows),
      groups: groups.map((g) => ({ group: g.group, label: g.label, count: g.rows.length })),
    };
  })();
  h.kept = { key, made };
  return made;
}
