import { z } from "zod";
import { openChatDownload } from "@/lib/sessions";
import { requireLogFolder, runChatRoute } from "@/server/chat-inspector";
import { downloadErrorResponse, primeStream } from "@/server/download";

export const dynamic = "force-dynamic";

const ZQuery = z.object({
  form: z.enum(["decompressed", "raw"]).default("decompressed"),
  generation: z.string().min(1).max(200).optional(),
});

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
 */
export function GET(request: Request): Promise<Response> {
  return runChatRoute(request, ZQuery, async (id, { form, generation }) => {
    try {
      const { logDir, compress } = requireLogFolder();
      const { generation: gen, stream } = openChatDownload(logDir, id, { form, generation, compress });
      const body = await primeStream(stream);
      const headers: Record<string, string> = {
        "content-type": form === "raw" && gen.compressed ? "application/zstd" : "application/x-ndjson; charset=utf-8",
        "content-disposition": `attachment; filename="${fileNameOf(id, gen.name, form)}"`,
        "cache-control": "no-store",
      };
      if (form === "raw") headers["content-length"] = String(gen.bytes);
      return new Response(body, { headers });
    } catch (error) {
      return downloadErrorResponse(error);
    }
  });
}
