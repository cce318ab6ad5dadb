import { type NextRequest, NextResponse } from "next/server";
import {
  accessConfigFromEnv,
  bearerToken,
  checkAccess,
  describeRefusal,
  fetchMetadataOf,
  isAllowedHost,
  isValidToken,
  SAFE_HEADERS,
  tokenCookieName,
} from "./lib/security/access";

/** The request header naming the source (`server/source/context.ts` `SOURCE_HEADER`). */
const SOURCE_HEADER = "x-oda-source";

/** The port and token this server was started with: read from the environment once, when it starts. */
const access = Object.freeze(accessConfigFromEnv(process.env));

/**
 * The first line of defence: Host, token and Origin for every request. It is
 * not the only one (CVE-2025-29927): pages, server actions and route handlers
 * run the same checks again through `server/access/guard.ts`.
 */
export function proxy(request: NextRequest): NextResponse {
  const host = request.headers.get("host");
  const cookieName = tokenCookieName(access.port);
  const urlToken = request.nextUrl.searchParams.get("token");

  // The printed URL carries the token once: swap it for a cookie and drop it from the address bar.
  if (urlToken !== null && request.method === "GET" && isAllowedHost(host, access.port)) {
    if (!isValidToken(urlToken, access.token)) return refuse(401, describeRefusal("token"));
    const clean = new URL(request.nextUrl.pathname + stripToken(request.nextUrl.search), `http://${host}`);
    const response = NextResponse.redirect(clean, 303);
    response.cookies.set(cookieName, urlToken, { httpOnly: true, sameSite: "strict", path: "/" });
    return response;
  }

  const verdict = checkAccess(
    {
      method: request.method,
      host,
      origin: request.headers.get("origin"),
      presentedToken: request.cookies.get(cookieName)?.value ?? bearerToken(request.headers.get("authorization")),
      fetchMetadata: fetchMetadataOf(request.headers),
    },
    access,
  );
  if (!verdict.ok) return refuse(verdict.status, describeRefusal(verdict.reason));
  return routeToSource(request);
}

// Not a source's page: Next's own files and the icon.
const UNSCOPED = /^\/(_next\/|favicon\.ico$)/;
const BUNDLE_PATH = /^\/b\/([^/]+)(\/.*)?$/;

/**
 * Each source has its own addresses: live pages where they always were, an
 * opened bundle's under `/b/<id>/…`. Both are served by the same pages, under
 * `app/s/[source]/`: the address is rewritten there, and the source's id is
 * handed to the server as a request header (`server/source/edge.ts` reads it;
 * one sent by the browser is replaced). Because the id is a route segment,
 * Next renders the layout again when a tab moves from one source to another.
 */
function routeToSource(request: NextRequest): NextResponse {
  const path = request.nextUrl.pathname;
  if (UNSCOPED.test(path)) return NextResponse.next({ headers: SAFE_HEADERS });
  const bundle = BUNDLE_PATH.exec(path);
  const source = bundle?.[1] ?? "live";
  const rest = bundle ? (bundle[2] ?? "") : path === "/" ? "" : path;
  const headers = new Headers(request.headers);
  headers.set(SOURCE_HEADER, source);
  // On the request's own origin: Next proxies a rewrite to any other origin (nextUrl's may read "localhost").
  const url = new URL(`/s/${encodeURIComponent(source)}${rest}${request.nextUrl.search}`, request.url);
  return NextResponse.rewrite(url, { request: { headers }, headers: SAFE_HEADERS });
}

function stripToken(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("token");
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}

function refuse(status: number, message: string): NextResponse {
  return new NextResponse(`${message}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...SAFE_HEADERS },
  });
}

export const config = {
  // Every route, static assets included: nothing is served without the token.
  matcher: "/:path*",
};
