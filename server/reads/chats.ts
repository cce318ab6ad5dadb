import "server-only";
import { z } from "zod";
import { findInChat, nextErrorLine, seekLine } from "@/lib/chats";
import { requireLogFolder, type SourceContext } from "@/server/source/context";
import type { LineView } from "@/server/views/chat-inspector";

// The log viewer's on-demand reads (Find, Next problem, the n/N e/E [ ] keys): each answers one line or null.

// Chat ids are data: the lib finds the chat folder by decoding folder names, never by joining a path.
const ZId = z.string().min(1).max(1024);
const ZGeneration = z.string().min(1).max(200).optional();
export const ZFind = z.object({
  id: ZId,
  query: z.string().min(1).max(1000),
  from: z.number().int().min(1),
  generation: ZGeneration,
});
export const ZNextError = z.object({ id: ZId, from: z.number().int().min(1), generation: ZGeneration });
export const ZSeek = z.object({
  id: ZId,
  seek: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("text"), query: z.string().min(1).max(1000) }),
    z.object({ kind: z.literal("problem") }),
    z.object({ kind: z.literal("user") }),
  ]),
  from: z.number().int().min(0),
  forward: z.boolean(),
  generation: ZGeneration,
});

function lineView(line: { n: number; offset: number; raw: string; error?: string } | null): LineView | null {
  if (!line) return null;
  return { n: line.n, offset: line.offset, raw: line.raw, ...(line.error ? { error: line.error } : {}) };
}

/** The first line at or after `from` containing `query` (case-insensitive), or `null`. */
export async function readFindInChat(ctx: SourceContext, { id, query, from, generation }: z.infer<typeof ZFind>) {
  const { logDir, compress } = requireLogFolder(ctx);
  return lineView(await findInChat(logDir, id, query, { from, generation, compress }));
}

/** The first line at or after `from` that is not a JSON object, or `null`. */
export async function readNextError(ctx: SourceContext, { id, from, generation }: z.infer<typeof ZNextError>) {
  const { logDir, compress } = requireLogFolder(ctx);
  return lineView(await nextErrorLine(logDir, id, { from, generation, compress }));
}

/** The nearest line after or before `from` holding a text, a problem or a user message, or `null`. */
export async function readSeekLine(ctx: SourceContext, v: z.infer<typeof ZSeek>) {
  const { logDir, compress } = requireLogFolder(ctx);
  return lineView(
    await seekLine(logDir, v.id, v.seek, { from: v.from, forward: v.forward, generation: v.generation, compress }),
  );
}
