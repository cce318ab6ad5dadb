import { z } from "zod";
import { openChatDownload } from "@/lib/chats";
import type { DownloadHead } from "@/lib/chats/worker-api";
import { OdaError } from "@/lib/errors";
import { downloadErrorResponse, primePull, primeStream } from "@/server/downloads/download";
import { requireLogFolder, type SourceContext } from "@/server/source/context";
import { runChatRoute } from "@/server/views/chat-inspector";
import { inWorker, type Pull, pullInWorker } from "@/server/workers/log-worker";

export const dynamic = "force-dynamic";

const ZQuery = z.object({
  form: z.enum(["decompressed", "raw"]).default("decompressed"),
  generation: z.string().min(1).max(200).optional(),
  /** One line alone (1-based): a line over the line limit, which the page shows truncated. */
  line: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
});

/**
 * `no-transform` keeps Next from gzipping a download on the fly: compressing
 * hundreds of megabytes of a log was the server thread's largest cost while
 * it streamed (the file is saved as it is anyway).
 */
const NO_STORE = "no-store, no-transform";

/** A file name safe in Content-Disposition: the chat id's safe characters only. */
function fileNameOf(id: string, logName: string, form: "decompressed" | "raw"): string {
  const base = id.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100) || "chat";
  const name = form === "raw" ? logName : logName.replace(/\.zstd$/, "");
  return `${base}-${name}`;
}

/**
 * Downloads a chat's log, streamed: `?form=decompressed` (the JSONL text) or
 * `?form=raw` (the file as stored). The file is opened read-only; a log that
 * cannot be used (undecodable, a FIFO, a link leading outside the log folder)
 * is answered with its sentence as plain text, before any byte of it is sent.
 * Decompressing runs on the decode worker; the stored form is a plain file read.
 */
export function GET(request: Request): Promise<Response> {
  return runChatRoute(request, ZQuery, async (ctx, id, { form, generation, line }) => {
    if (line !== undefined) return downloadLine(ctx, id, line, generation);
    try {
      const { logDir, compress } = requireLogFolder(ctx);
      if (form === "decompressed") return await downloadDecompressed(id, logDir, { generation, compress });
      const { generation: gen, stream } = openChatDownload(logDir, id, { form, generation, compress });
      const body = await primeStream(stream);
      const headers: Record<string, string> = {
        "content-type": gen.compressed ? "application/zstd" : "application/x-ndjson; charset=utf-8",
        "content-disposition": `attachment; filename="${fileNameOf(id, gen.name, form)}"`,
        "cache-control": NO_STORE,
        "content-length": String(gen.bytes),
        // Next drops content-length; the server's preload puts this back as it (server/access/host-guard.cjs).
        "x-oda-content-length": String(gen.bytes),
      };
      return new Response(body, { headers });
    } catch (error) {
      return downloadErrorResponse(error);
    }
  });
}

/** A log decompressed on the decode worker: its head names the log, then its bytes follow as asked for. */
async function downloadDecompressed(
  id: string,
  logDir: string,
  options: { generation?: string; compress: boolean },
): Promise<Response> {
  const pull = pullInWorker("downloadLog", logDir, id, options);
  const head = await pull.next();
  if (head.done || head.value instanceof Uint8Array) throw new Error("The decode worker sent no download head.");
  const { generation } = head.value as DownloadHead;
  const body = await primePull(pull as Pull<Uint8Array>);
  return new Response(body, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${fileNameOf(id, generation, "decompressed")}"`,
      "cache-control": NO_STORE,
    },
  });
}

/** One line of a log, decoded (on the decode worker) from the nearest seek point and streamed (never held whole). */
async function downloadLine(
  ctx: SourceContext,
  id: string,
  n: number,
  generation: string | undefined,
): Promise<Response> {
  const { logDir, compress } = requireLogFolder(ctx);
  const seek = await inWorker("seekPoint", logDir, id, { compress, generation }, n);
  if (n > seek.lines) throw new OdaError("not_found", `Chat "${id}" has no line ${n}.`);
  const name = `${fileNameOf(id, "session.jsonl", "decompressed").replace(/\.jsonl$/, "")}-line-${n}.json`;
  return new Response(await primePull(pullInWorker("downloadLine", seek.path, seek.compressed, seek.point, n)), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": NO_STORE,
    },
  });
}
