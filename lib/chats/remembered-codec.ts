import { sep } from "node:path";
import type { ChatSummary, Generation } from "./chat";
import type { ChatLocation } from "./folder";
import { GENERATION_KEYS as GEN_KEYS, DETAIL_KEYS as KEYS, keysInOrder, PLACE_KEYS as PLACE } from "./summary-keys";

/**
 * A remembered chat's summary as `listing.sqlite` keeps it (`remembered.ts`):
 * the values alone, in the order `summarizeChat` makes the keys, as one JSON
 * array (no key names to parse again at each listing), without what the
 * listing's walk gives (the chat's id, folder, group and working folder, and
 * its logs' paths) and with a lock of state none as `0`. Decoding gives back
 * the very object, keys in the same order. A summary of other keys, or keys
 * in another order, is kept as a JSON object (`{`), as before, and decoded as such.
 */

const NO_LOCK = JSON.stringify({ state: "none", reason: "No lock file." });

/** The stored form of a chat's summary (its `verified` and `remembered` marks are not kept). */
export function encodeRemembered(chat: ChatSummary): string {
  const { verified: _v, remembered: _r, ...all } = chat;
  const gens = all.generations as unknown as Record<string, unknown>[];
  // An undefined value has no place in an array's JSON (it would come back null): kept whole.
  const plain = (o: object) => !Object.values(o).includes(undefined);
  if (
    !keysInOrder(all, [...PLACE, ...KEYS]) ||
    !plain(all) ||
    !gens.every((g) => keysInOrder(g, GEN_KEYS) && plain(g))
  ) {
    // Kept whole, as an object, but for what the walk gives.
    const { id: _i, folder: _f, group: _g, cwd: _c, ...summary } = all;
    summary.generations = summary.generations.map(({ path: _p, ...g }) => g as Generation);
    return JSON.stringify(summary);
  }
  const record = all as unknown as Record<string, unknown>;
  return JSON.stringify(
    KEYS.map((k) => {
      if (k === "generations")
        return gens.map((g) => [g.name, g.format, g.compressed, g.bytes, g.current, g.refused, g.blocked]);
      if (k === "lock" && JSON.stringify(record.lock) === NO_LOCK) return 0;
      return record[k];
    }),
  );
}

type Gen = [string, number, boolean, number, boolean, Generation["refused"], Generation["blocked"]];

/** The summary back from its stored form, placed where the listing's walk found the chat. Throws on a damaged record. */
export function decodeRemembered(stored: string, loc: ChatLocation): ChatSummary {
  const dir = loc.dir;
  if (stored.charCodeAt(0) !== 91 /* [ */) {
    const summary = JSON.parse(stored) as Omit<ChatSummary, (typeof PLACE)[number]>;
    const chat: ChatSummary = { id: loc.id, folder: loc.folder, group: loc.group, cwd: loc.cwd, ...summary };
    for (const g of chat.generations) g.path = `${dir}${sep}${g.name}`;
    return chat;
  }
  const v = JSON.parse(stored) as unknown[];
  if (v.length !== KEYS.length) throw new Error("A remembered summary of another length.");
  return {
    id: loc.id,
    folder: loc.folder,
    group: loc.group,
    cwd: loc.cwd,
    format: v[0],
    created: v[1],
    generations: (v[2] as Gen[]).map((g) => ({
      name: g[0],
      format: g[1],
      compressed: g[2],
      path: `${dir}${sep}${g[0]}`,
      bytes: g[3],
      current: g[4],
      refused: g[5],
      blocked: g[6],
    })),
    continues: v[3],
    title: v[4],
    firstActivity: v[5],
    lastActivity: v[6],
    messages: v[7],
    models: v[8],
    inputTokens: v[9],
    outputTokens: v[10],
    cached: v[11],
    cacheState: v[12],
    cacheReason: v[13],
    behindBytes: v[14],
    lock: v[15] === 0 ? { state: "none", reason: "No lock file." } : v[15],
    tail: v[16],
    problems: v[17],
  } as ChatSummary;
}
