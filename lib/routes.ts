/**
 * Every address of the dashboard, in one place: pages, downloads and the GET
 * route handlers the browser polls. Ids and workspace keys are data, never
 * paths: they are always URL-encoded here. A `null` workspace is the global set.
 */

type Params = Record<string, string | number | boolean | null | undefined>;

/** `?a=1&b=2` from the params that are set (`null`, `undefined`, `false` and `""` are left out), or "". */
export function queryString(params: Params): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === false || value === "") continue;
    query.set(key, value === true ? "1" : String(value));
  }
  const rest = query.toString();
  return rest ? `?${rest}` : "";
}

/** The memory pages that take no parameter. */
export const memoryPages = {
  overview: "/memory",
  deleted: "/memory/deleted",
  payload: "/memory/payload",
  problems: "/memory/problems",
  health: "/memory/health",
  settings: "/memory/settings",
} as const;

/** A memory set's page. */
export function setHref(workspace: string | null): string {
  return workspace === null ? "/memory/global" : `/memory/workspaces/${encodeURIComponent(workspace)}`;
}

/** The editor of one memory. */
export function memoryHref(workspace: string | null, id: string): string {
  return `${setHref(workspace)}/${encodeURIComponent(id)}`;
}

/** The editor of a new memory in a set. */
export function newMemoryHref(workspace: string | null): string {
  return `${setHref(workspace)}/new`;
}

/** The history of one memory, optionally opened on a version. */
export function historyHref(workspace: string | null, id: string, version?: string): string {
  return `${memoryHref(workspace, id)}/history${queryString({ version })}`;
}

/** The chat list, optionally filtered to chats with problems. */
export function chatsHref(params: { problems?: boolean } = {}): string {
  return `/chats${queryString(params)}`;
}

/**
 * The inspector of one chat: at a line, in a view, on a generation, with an
 * older generation beside it, or (`copy`, 0-based) one copy of a chat stored in two places.
 */
export function chatHref(
  id: string,
  params: {
    line?: number;
    view?: "raw" | "conversation";
    generation?: string | null;
    beside?: string;
    copy?: number;
  } = {},
): string {
  return `/chats/${encodeURIComponent(id)}${queryString({ ...params, line: params.line || undefined })}`;
}

/** The highest `?copy=` (0-based) of a chat stored in two places that its page and routes take. */
export const MAX_COPY = 15;

/**
 * `?copy=`, one copy (0-based) of a chat stored in two places, as its page and
 * its `lines` and `status` routes read it: the copy's number, or undefined
 * when absent or not one (a route refuses that; the page shows no copy).
 */
export function parseCopy(value: string | null | undefined): number | undefined {
  if (!value || !/^\d{1,2}$/.test(value)) return undefined;
  const n = Number(value);
  return n <= MAX_COPY ? n : undefined;
}

/** A GET route handler under a chat (`lines`, `status`, `find`, …) with its query. */
export function chatDataHref(id: string, what: string, params: Params): string {
  return `/chats/${encodeURIComponent(id)}/${what}${queryString(params)}`;
}

/** The download of a log, decompressed or as stored. */
export function downloadHref(id: string, form: "decompressed" | "raw", generation: string | null): string {
  return chatDataHref(id, "download", { form, generation });
}

/** The download of one line of a log (a line over the line limit, shown truncated). */
export function lineDownloadHref(id: string, line: number, generation: string | null): string {
  return chatDataHref(id, "download", { line, generation });
}

/** The search page, with its query string as built by the search form. */
export function searchHref(query = ""): string {
  return query ? `/search?${query}` : "/search";
}

/** The support pages. */
export const supportPages = {
  home: "/support",
  doctor: "/support/doctor",
  /** The download of a finished bundle job. */
  download: (job: string) => `/support/download${queryString({ job })}`,
} as const;

/** The Bundles page: the opened bundles, with open and close (a live page). */
export const BUNDLES_PAGE = "/bundles";

/** The prefix of a bundle source's addresses: `/b/<id>` (the live installation's is ""). */
export function sourcePrefix(sourceId: string): string {
  return sourceId === "live" ? "" : `/b/${encodeURIComponent(sourceId)}`;
}

/**
 * `href` inside the source whose prefix is `prefix`: a dashboard address
 * (starting with one `/`) is prefixed once; an address already inside a
 * source, another site's or a fragment is kept as it is.
 */
export function inSource(prefix: string, href: string): string {
  if (!prefix || !href.startsWith("/") || href.startsWith("//")) return href;
  if (href === prefix || href.startsWith(`${prefix}/`) || href.startsWith(`${prefix}?`) || href.startsWith("/b/"))
    return href;
  return href === "/" ? prefix : href.startsWith("/?") ? `${prefix}${href.slice(1)}` : `${prefix}${href}`;
}

/** `pathname` as the source's pages know it: without the source's prefix ("/" for the prefix itself). */
export function outOfSource(prefix: string, pathname: string): string {
  if (!prefix || !(pathname === prefix || pathname.startsWith(`${prefix}/`))) return pathname;
  return pathname.slice(prefix.length) || "/";
}
