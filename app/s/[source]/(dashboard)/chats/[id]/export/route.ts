import { z } from "zod";
import { EXPORT_FORMATS } from "@/lib/export";
import { exportResponse } from "@/server/downloads/chat-export";
import { downloadErrorResponse } from "@/server/downloads/download";
import { requireLogFolder } from "@/server/source/context";
import { runChatRoute } from "@/server/views/chat-inspector";

export const dynamic = "force-dynamic";

const ZQuery = z.object({
  format: z.enum(EXPORT_FORMATS).default("md"),
  /** The Export menu's checkbox: present ("1") when ticked. */
  redact: z.enum(["1"]).optional(),
  generation: z.string().min(1).max(200).optional(),
});

/** A chat exported as Markdown, HTML or JSONL (`?format=md|html|jsonl[&redact=1][&generation=NAME]`), streamed. */
export function GET(request: Request): Promise<Response> {
  return runChatRoute(request, ZQuery, async (ctx, id, { format, redact, generation }) => {
    try {
      const { logDir, compress } = requireLogFolder(ctx);
      return await exportResponse(id, logDir, { format, redact: redact === "1", generation, compress });
    } catch (error) {
      return downloadErrorResponse(error);
    }
  });
}
