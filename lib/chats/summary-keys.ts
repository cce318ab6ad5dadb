/**
 * A chat summary's keys in the order `summarizeChat` makes them, for the two
 * codecs that store summaries as values in that order (the search index's row,
 * `search-index/summary-codec.ts`, and the listing's memory,
 * `remembered-codec.ts`): the four the folder walk gives, then the details.
 */
export const PLACE_KEYS = ["id", "folder", "group", "cwd"] as const;

export const DETAIL_KEYS = [
  "format",
  "created",
  "generations",
  "continues",
  "title",
  "firstActivity",
  "lastActivity",
  "messages",
  "models",
  "inputTokens",
  "outputTokens",
  "cached",
  "cacheState",
  "cacheReason",
  "behindBytes",
  "lock",
  "tail",
  "problems",
] as const;

export const SUMMARY_KEYS = [...PLACE_KEYS, ...DETAIL_KEYS] as const;

/** A generation's keys, in the order the summary makes them. */
export const GENERATION_KEYS = [
  "name",
  "format",
  "compressed",
  "path",
  "bytes",
  "current",
  "refused",
  "blocked",
] as const;

/** True when `value`'s own keys are exactly `order`, in that order. */
export function keysInOrder(value: object, order: readonly string[]): boolean {
  const keys = Object.keys(value);
  return keys.length === order.length && keys.every((k, i) => k === order[i]);
}
