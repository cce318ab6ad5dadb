"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { findInChat, freeStaleLock, nextErrorLine, seekLine } from "@/lib/sessions";
import { runAction } from "@/server/action";
import type { LineView } from "@/server/chat-inspector";
import { requireLogFolder } from "@/server/source/context";

// Chat ids are data: the lib finds the chat folder by decoding folder names, never by joining a path.
const ZId = z.string().min(1).max(1024);
const ZGeneration = z.string().min(1).max(200).optional();
const ZFind = z.object({
  id: ZId,
  query: z.string().min(1).max(1000),
  from: z.number().int().min(1),
  generation: ZGeneration,
});
const ZNextError = z.object({ id: ZId, from: z.number().int().min(1), generation: ZGeneration });
const ZSeek = z.object({
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
const ZFree = z.object({ id: ZId, expectPid: z.number().int().positive() });

function lineView(line: { n: number; offset: number; raw: string; error?: string } | null): LineView | null {
  if (!line) return null;
  return { n: line.n, offset: line.offset, raw: line.raw, ...(line.error ? { error: line.error } : {}) };
}

/** The first line at or after `from` containing `query` (case-insensitive), or `null`. */
export async function findInChatAction(input: unknown) {
  return runAction(ZFind, input, async ({ id, query, from, generation }, ctx) => {
    const { logDir, compress } = requireLogFolder(ctx);
    return lineView(await findInChat(logDir, id, query, { from, generation, compress }));
  });
}

/** The first line at or after `from` that is not a JSON object, or `null`. */
export async function nextErrorAction(input: unknown) {
  return runAction(ZNextError, input, async ({ id, from, generation }, ctx) => {
    const { logDir, compress } = requireLogFolder(ctx);
    return lineView(await nextErrorLine(logDir, id, { from, generation, compress }));
  });
}

/** The nearest line after or before `from` holding a text, a problem or a user message, or `null`. */
export async function seekLineAction(input: unknown) {
  return runAction(ZSeek, input, async ({ id, seek, from, forward, generation }, ctx) => {
    const { logDir, compress } = requireLogFolder(ctx);
    return lineView(await seekLine(logDir, id, seek, { from, forward, generation, compress }));
  });
}

/**
 * Frees a chat whose lock a dead process left behind, after the person
 * confirmed it naming that process; the lib refuses unless the lock is provably
 * stale and still names `expectPid`. The dashboard's only write in a chat folder.
 */
export async function freeStaleLockAction(input: unknown) {
  return runAction(
    ZFree,
    input,
    async ({ id, expectPid }, ctx) => {
      const { logDir } = requireLogFolder(ctx);
      const status = freeStaleLock(logDir, id, { expectPid });
      revalidatePath("/chats");
      return { state: status.state, reason: status.reason };
    },
    { writes: true },
  );
}
