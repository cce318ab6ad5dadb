import { errorBody, isOdaError } from "@/lib/errors";
import { systemErrorAsOda } from "@/lib/fs/system-error";
import { guardRoute } from "@/server/access/guard";
import { streamDoctorReport } from "@/server/reads/doctor-stream";
import { routeSource } from "@/server/source/edge";

export const dynamic = "force-dynamic";

const UNEXPECTED = "The doctor report could not be made; run oda-admin doctor.";
const NDJSON = { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" };

/**
 * The Doctor page's report as NDJSON, one `DoctorStep` a line as it is found
 * (the memory, then the chat logs a batch at a time with the count read). When
 * the page goes away the stream is cancelled and the reading of logs stops.
 * A failure ends the stream with `{"error": {"code": …, "message": "<sentence>"}}`.
 */
export async function GET(request: Request): Promise<Response> {
  const refused = await guardRoute(request);
  if (refused) return refused;
  let ctx: ReturnType<typeof routeSource>;
  try {
    ctx = routeSource(request);
  } catch (thrown) {
    const error = systemErrorAsOda(thrown);
    return new Response(`${JSON.stringify({ error: errorBody(error, UNEXPECTED) })}\n`, {
      status: 404,
      headers: NDJSON,
    });
  }
  const encoder = new TextEncoder();
  const steps = streamDoctorReport(ctx);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await steps.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
      } catch (thrown) {
        const error = systemErrorAsOda(thrown);
        if (!isOdaError(error)) console.error("oda-admin: the doctor report failed:", error);
        controller.enqueue(encoder.encode(`${JSON.stringify({ error: errorBody(error, UNEXPECTED) })}\n`));
        controller.close();
      }
    },
    async cancel() {
      await steps.return(undefined);
    },
  });
  return new Response(body, { headers: NDJSON });
}
