import { createReadStream, statSync } from "node:fs";
import { basename } from "node:path";
import { Readable } from "node:stream";
import { guardRoute } from "@/server/access/guard";
import { bundleJob } from "@/server/jobs/bundle-jobs";

export const dynamic = "force-dynamic";

const text = (status: number, sentence: string) =>
  new Response(`${sentence}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } });

/** Downloads a bundle this server wrote (`?job=ID`), streamed from the state folder; never the map beside it. */
export async function GET(request: Request): Promise<Response> {
  const refused = await guardRoute(request);
  if (refused) return refused;
  const id = new URL(request.url).searchParams.get("job") ?? "";
  const job = /^[0-9a-f]{16}$/.test(id) ? bundleJob(id) : null;
  if (!job?.file) return text(404, "No finished bundle with that id was written by this dashboard.");
  const size = statSync(job.file).size;
  return new Response(Readable.toWeb(createReadStream(job.file)) as ReadableStream<Uint8Array>, {
    headers: {
      "content-type": "application/gzip",
      "content-length": String(size),
      // Next drops content-length; the server's preload puts this back as it (server/access/host-guard.cjs).
      "x-oda-content-length": String(size),
      "content-disposition": `attachment; filename="${basename(job.file)}"`,
      "cache-control": "no-store",
    },
  });
}
