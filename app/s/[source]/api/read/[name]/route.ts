import { SAFE_HEADERS } from "@/lib/security/access";
import { guardRoute } from "@/server/access/guard";
import { isReadName, runRead } from "@/server/reads";
import { routeSource } from "@/server/source/edge";

export const dynamic = "force-dynamic";

// nosniff: the JSON must never run as a script another page includes (the proxy adds it too, but may be skipped).
const HEADERS = { "cache-control": "no-store", ...SAFE_HEADERS };

/**
 * One read of `server/reads/` as JSON, in the actions' result shape
 * (`{ ok: true, data }` or `{ ok: false, error: { code, message } }`).
 * `?input=` is the read's input as JSON; an unknown read is a 404.
 */
export async function GET(request: Request, context: { params: Promise<{ name: string }> }): Promise<Response> {
  const refused = await guardRoute(request);
  if (refused) return refused;
  const { name } = await context.params;
  if (!isReadName(name)) {
    return Response.json(
      { ok: false, error: { code: "not_found", message: `There is no read named ${name}.` } },
      {
        status: 404,
        headers: HEADERS,
      },
    );
  }
  let input: unknown = {};
  try {
    input = JSON.parse(new URL(request.url).searchParams.get("input") ?? "{}");
  } catch {
    return Response.json(
      { ok: false, error: { code: "bad_input", message: "The request was not valid." } },
      { status: 400, headers: HEADERS },
    );
  }
  // The source is the address's (`/b/<id>/api/read/…`, set by the proxy); a closed one answers not_found.
  // The request's signal aborts when its client goes: a long read nobody else waits for then stops.
  return Response.json(await runRead(name, input, () => routeSource(request), request.signal), { headers: HEADERS });
}
