import { OdaError } from "../errors";

/**
 * The check of a typed query, apart from the index's SQL so the search page can
 * run it in the browser: a query too long for the check would be too long for
 * the address it travels in (Node refuses a request line over 16 KB with 431).
 */

/** The longest query searched, in characters. */
export const MAX_QUERY_CHARS = 1000;

/** The query as typed, checked: refuses an empty one and one over `MAX_QUERY_CHARS`. */
export function checkQuery(typed: string): string {
  const query = typed.trim();
  if (!query) throw new OdaError("bad_input", "Type something to search for.", { field: "query" });
  const chars = [...query].length;
  if (chars > MAX_QUERY_CHARS)
    throw new OdaError(
      "bad_input",
      `A search can be at most ${MAX_QUERY_CHARS.toLocaleString("en")} characters long; this one has ${chars.toLocaleString("en")}. Search for a shorter part of the text.`,
      { field: "query" },
    );
  return query;
}
