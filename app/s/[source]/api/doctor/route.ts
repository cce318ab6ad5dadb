import { guardRoute } from "@/server/access/guard";
import { streamDoctorReport } from "@/server/reads/doctor-stream";
import { ndjsonRead } from "@/server/reads/ndjson";

export const dynamic = "force-dynamic";

/**
 * The Doctor page's report as NDJSON, one `DoctorStep` a line as it is found
 * (the memory, then the chat logs a batch at a time with the count read). When
 * the page goes away the stream is cancelled and the reading of logs stops.
 * A failure ends the stream with `{"error": {"code": …, "message": "<sentence>"}}`.
 */
export async function GET(request: Request): Promise<Response> {
  const refused = await guardRoute(request);
  if (refused) return refused;
  return ndjsonRead(request, streamDoctorReport, {
    unexpected: "The doctor report could not be made; run oda-admin doctor.",
    what: "the doctor report",
  });
}
