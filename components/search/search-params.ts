/** A search as the page's URL holds it (`/search?q=…&cwd=…&since=…&until=…&role=…&problems=1&notes=1`). */
export interface SearchParams {
  query: string;
  cwd: string;
  since: string;
  until: string;
  role: string;
  problems: boolean;
  /** Only chats with marks or notes. */
  notes: boolean;
}

/** The roles a search can be narrowed to, as the filter names them. */
export const SEARCH_ROLE_LABELS: Record<string, string> = {
  user: "User messages",
  assistant: "Assistant messages",
  system: "System messages",
  tool: "Tool calls and results",
  memory: "Memory lines",
  title: "Titles",
  event: "Other events",
  unparsed: "Lines that are not JSON",
};

type Raw = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[0] ?? "") : (v ?? ""));

/** Reads the search from the URL's parameters. */
export function readSearchParams(raw: Raw): SearchParams {
  return {
    query: one(raw.q),
    cwd: one(raw.cwd),
    since: one(raw.since),
    until: one(raw.until),
    role: one(raw.role),
    problems: one(raw.problems) === "1",
    notes: one(raw.notes) === "1",
  };
}

/** The URL's query string for a search. */
export function searchParamsString(p: SearchParams): string {
  const out = new URLSearchParams();
  if (p.query) out.set("q", p.query);
  if (p.cwd) out.set("cwd", p.cwd);
  if (p.since) out.set("since", p.since);
  if (p.until) out.set("until", p.until);
  if (p.role) out.set("role", p.role);
  if (p.problems) out.set("problems", "1");
  if (p.notes) out.set("notes", "1");
  return out.toString();
}
