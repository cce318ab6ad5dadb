import { type inferParserType, parseAsBoolean, parseAsString, parseAsStringLiteral } from "nuqs/server";
import type { ListFilters } from "@/lib/chats/list-filter";
import { CHAT_SORT_KEYS } from "@/lib/chats/views";

export const LOCKS = ["none", "live", "stale", "unknown"] as const;

/**
 * The chat list's filters, sort and grouping as URL search params (nuqs), so
 * Back from a chat, a reload or a shared link shows the same list. Defaults
 * stay out of the address; typing replaces the history entry instead of
 * pushing one per key. Read in the browser (`list-url.ts`) and by the page on
 * the server, which reads the list's first window into its HTML.
 */
export const PARAMS = {
  find: parseAsString.withDefault(""),
  folder: parseAsString.withDefault(""),
  lock: parseAsStringLiteral(LOCKS),
  format: parseAsString.withDefault(""),
  problems: parseAsBoolean.withDefault(false),
  // The days chats started on (`lib/insights/started.ts`) and the zone they are in: what Insights links to.
  started: parseAsString.withDefault(""),
  tz: parseAsString.withDefault(""),
  sort: parseAsStringLiteral(CHAT_SORT_KEYS).withDefault("lastActivity"),
  dir: parseAsStringLiteral(["asc", "desc"] as const).withDefault("desc"),
  grouped: parseAsBoolean.withDefault(true),
};

/** The filters the URL's params say. */
export function filtersOf(
  q: Pick<inferParserType<typeof PARAMS>, "find" | "folder" | "lock" | "format" | "problems" | "started" | "tz">,
): ListFilters {
  return {
    find: q.find,
    group: q.folder,
    lock: q.lock ?? "",
    format: q.format,
    problemsOnly: q.problems,
    started: q.started,
    tz: q.tz,
  };
}
