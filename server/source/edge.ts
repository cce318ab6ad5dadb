import "server-only";
import { headers } from "next/headers";
import { cache } from "react";
import { OdaError } from "@/lib/errors";
import { LIVE_ID, SOURCE_HEADER, type SourceContext } from "./context";
import { sources } from "./registry";

/** The source id the proxy read from a `/b/<id>/…` address (it strips the header from every other address), or live. */
export function sourceIdFrom(h: Pick<Headers, "get">): string {
  return h.get(SOURCE_HEADER) || LIVE_ID;
}

/**
 * For pages, layouts and the server components in them: the context of the
 * source the address names, made once per request (refused `not_found` for a
 * closed bundle).
 */
export const pageSource = cache(async (): Promise<SourceContext> => sources().resolve(sourceIdFrom(await headers())));

/** For route handlers: the context of the source the address names. */
export function routeSource(request: Request): SourceContext {
  return sources().resolve(sourceIdFrom(request.headers));
}

/**
 * For server actions: the context of the source the page was rendered for,
 * which the action carries in its input (never the address it was posted to,
 * never whatever another request opened since).
 */
export function actionSource(id: unknown): SourceContext {
  if (typeof id !== "string") throw new OdaError("bad_input", "The request did not say which source it is for.");
  return sources().resolve(id);
}
