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

/**
 * The first line of defence: Host, token and Origin for every request. It is
 * not the only one (CVE-2025-29927): pages, server actions and route handlers
 * run the same checks again through `server/guard.ts`.
 */
export function proxy(request: NextRequest): NextResponse {
  const config = accessConfigFromEnv();
  const host = request.headers.get("host");
  const cookieName = tokenCookieName(config.port);
  const urlToken = request.nextUrl.searchParams.get("token");

  // The printed URL carries the token once: swap it for a cookie and drop it from the address bar.
  if (urlToken !== null && request.method === "GET" && isAllowedHost(host, config.port)) {
    if (!isValidToken(urlToken, config.token)) return refuse(401, describeRefusal("token"));
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
    config,
  );
  if (!verdict.ok) return refuse(verdict.status, describeRefusal(verdict.reason));
  return NextResponse.next({ headers: SAFE_HEADERS });
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
