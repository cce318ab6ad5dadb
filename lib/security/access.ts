import { timingSafeEqual } from "node:crypto";

/**
 * The dashboard's access rules, free of any framework so that the proxy, every
 * server action, every route handler and the tests share one implementation.
 *
 * - Host must name this server on the loopback interface (DNS rebinding).
 * - A per-start 256-bit token, given once in the printed URL and then kept in
 *   an HttpOnly, SameSite=Strict cookie, must accompany every request.
 * - A request that changes anything must carry an Origin of this server.
 * - A browser's request made by another origin's page (`Sec-Fetch-Site`
 *   `same-site` or `cross-site`) is refused unless it opens a page as a whole:
 *   the cookie is SameSite=Strict, but a site is the host without its port,
 *   so any other server on 127.0.0.1 is "same-site" and its `<img>`,
 *   `<script src>` or no-cors `fetch` would carry the cookie along.
 */
export type AccessVerdict =
  | { ok: true }
  | { ok: false; status: 401 | 403; reason: "host" | "token" | "origin" | "cross-origin" | "no-token-configured" };

export interface AccessConfig {
  /** The per-start token; with none, every request is refused. */
  token: string | undefined;
  /** The port the server listens on; undefined accepts any port (dev only). */
  port: string | undefined;
}

export interface AccessRequest {
  method: string;
  host: string | null;
  origin: string | null;
  /** The token as presented: cookie, `Authorization: Bearer`, or the URL's `token`. */
  presentedToken: string | null;
  /** The browser's `Sec-Fetch-Site`, `Sec-Fetch-Mode` and `Sec-Fetch-Dest` (absent outside browsers). */
  fetchMetadata?: { site: string | null; mode: string | null; dest: string | null };
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** The cookie that carries the token; named per port so two servers never mix. */
export function tokenCookieName(port: string | undefined): string {
  return `oda_admin_${port ?? "dev"}`;
}

/** The access settings of this process, from the environment the start script sets (read once by the caller). */
export function accessConfigFromEnv(env: Readonly<Record<string, string | undefined>>): AccessConfig {
  return { token: env.ODA_ADMIN_TOKEN || undefined, port: env.ODA_ADMIN_PORT || undefined };
}

/** True when `host` is `127.0.0.1:<port>`, `localhost:<port>` or `[::1]:<port>`. */
export function isAllowedHost(host: string | null, port: string | undefined): boolean {
  if (!host) return false;
  const lower = host.toLowerCase();
  return LOOPBACK_NAMES.some((name) => {
    if (port) return lower === `${name}:${port}`;
    return lower === name || new RegExp(`^${name.replace(/[[\].]/g, "\\$&")}:\\d{1,5}$`).test(lower);
  });
}

/** Constant-time comparison of the presented token with the configured one. */
export function isValidToken(presented: string | null, token: string | undefined): boolean {
  if (!presented || !token) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** An Origin is ours when it is exactly `http://<the Host we accepted>`. */
export function isSameOrigin(origin: string | null, host: string | null): boolean {
  if (!origin || origin === "null" || !host) return false;
  return origin.toLowerCase() === `http://${host.toLowerCase()}`;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * True when a browser says another origin's page made the request, and it
 * does not open one of our pages as a whole (a link followed from elsewhere
 * still works; an image, a script, a fetch or a frame does not).
 */
export function isForeignFetch(metadata: AccessRequest["fetchMetadata"]): boolean {
  const site = metadata?.site?.toLowerCase();
  if (!site || site === "same-origin" || site === "none") return false;
  return !(metadata?.mode === "navigate" && metadata.dest === "document");
}

/** Applies every rule in order: Host (403), token (401), Origin for writes (403), another origin's page (403). */
export function checkAccess(request: AccessRequest, config: AccessConfig): AccessVerdict {
  if (!isAllowedHost(request.host, config.port)) return { ok: false, status: 403, reason: "host" };
  if (!config.token) return { ok: false, status: 401, reason: "no-token-configured" };
  if (!isValidToken(request.presentedToken, config.token)) return { ok: false, status: 401, reason: "token" };
  if (!SAFE_METHODS.has(request.method.toUpperCase()) && !isSameOrigin(request.origin, request.host)) {
    return { ok: false, status: 403, reason: "origin" };
  }
  if (isForeignFetch(request.fetchMetadata)) return { ok: false, status: 403, reason: "cross-origin" };
  return { ok: true };
}

/** The Fetch Metadata headers of a request, for {@link checkAccess}. */
export function fetchMetadataOf(headers: { get(name: string): string | null }): AccessRequest["fetchMetadata"] {
  return {
    site: headers.get("sec-fetch-site"),
    mode: headers.get("sec-fetch-mode"),
    dest: headers.get("sec-fetch-dest"),
  };
}

/** Headers every answer carries: never sniffed into a script or a style, never framed by another page. */
export const SAFE_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
} as const;

/** Reads a token from `Authorization: Bearer <token>`. */
export function bearerToken(authorization: string | null): string | null {
  const match = authorization?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}

/** The sentence shown with a refusal; never reveals the token. */
export function describeRefusal(reason: Exclude<AccessVerdict, { ok: true }>["reason"]): string {
  switch (reason) {
    case "host":
      return "Forbidden: this dashboard only answers on 127.0.0.1, localhost or [::1] at its own port.";
    case "origin":
      return "Forbidden: a change must come from this dashboard's own pages.";
    case "cross-origin":
      return "Forbidden: this dashboard answers only its own pages; another site's page cannot read from it.";
    case "no-token-configured":
      return "This server was started without an access token; start it with npm start.";
    case "token":
      return "Unauthorized: open the URL that npm start printed, with its access token.";
  }
}
