import "server-only";
import { cookies, headers } from "next/headers";
import { forbidden, unauthorized } from "next/navigation";
import {
  type AccessVerdict,
  accessConfigFromEnv,
  bearerToken,
  checkAccess,
  describeRefusal,
  fetchMetadataOf,
  SAFE_HEADERS,
  tokenCookieName,
} from "@/lib/security/access";

/** The port and token this server was started with: read from the environment once, when it starts. */
const access = Object.freeze(accessConfigFromEnv(process.env));

/**
 * The access rules again, inside the app: the proxy can be bypassed
 * (CVE-2025-29927), so every page, server action and route handler checks too.
 */
async function verdictFromHeaders(method: string): Promise<AccessVerdict> {
  const h = await headers();
  const jar = await cookies();
  return checkAccess(
    {
      method,
      host: h.get("host"),
      origin: h.get("origin"),
      presentedToken: jar.get(tokenCookieName(access.port))?.value ?? bearerToken(h.get("authorization")),
      fetchMetadata: fetchMetadataOf(h),
    },
    access,
  );
}

/** For pages and layouts: answers 401 or 403 through Next's auth interrupts. */
export async function guardPage(): Promise<void> {
  const verdict = await verdictFromHeaders("GET");
  if (!verdict.ok) verdict.status === 401 ? unauthorized() : forbidden();
}

/** For server actions (always POSTs): throws a refusal the action cannot leak past. */
export async function guardAction(): Promise<void> {
  const verdict = await verdictFromHeaders("POST");
  if (!verdict.ok) verdict.status === 401 ? unauthorized() : forbidden();
}

/** For route handlers: a ready refusal `Response`, or null when the request may go on. */
export async function guardRoute(request: Request): Promise<Response | null> {
  const verdict = await verdictFromHeaders(request.method);
  if (verdict.ok) return null;
  return new Response(`${describeRefusal(verdict.reason)}\n`, {
    status: verdict.status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...SAFE_HEADERS },
  });
}
