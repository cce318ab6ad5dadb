"use server";

import { z } from "zod";
import { addNote, removeNote } from "@/lib/notes";
import { runAction } from "@/server/action";
import { inWorker } from "@/server/log-worker";
import { requireLogFolder, requireSourceRoot } from "@/server/source/context";

const ZId = z.string().min(1).max(1024);
const ZAdd = z.object({
  id: ZId,
  generation: z.string().min(1).max(200),
  line: z.number().int().min(1),
  text: z.string().max(10_000),
});
const ZRemove = z.object({ id: ZId, note: z.string().min(1).max(100) });

/**
 * Marks (empty text) or notes a line: its text is read now, so the note keeps the line's hash. Notes live in
 * the source's admin state, never in the chat's files: a bundle's own state takes them too, so support can
 * annotate what it received.
 */
export async function addNoteAction(input: unknown) {
  return runAction(ZAdd, input, async ({ id, generation, line, text }, ctx) => {
    const { logDir, compress } = requireLogFolder(ctx);
    const read = await inWorker("readLines", logDir, id, { from: line, count: 1, generation, compress });
    const found = read.lines[0];
    if (!found || found.n !== line) throw new Error(`Chat "${id}" has no line ${line}.`);
    return addNote(requireSourceRoot(ctx, "state"), {
      chat: id,
      generation: read.generation,
      line,
      lineText: found.raw,
      text,
    });
  });
}

/** Removes a mark or note. */
export async function removeNoteAction(input: unknown) {
  return runAction(ZRemove, input, ({ id, note }, ctx) => removeNote(requireSourceRoot(ctx, "state"), id, note));
}
