"use server";

import { z } from "zod";
import { OdaError } from "@/lib/errors";
import { addNote, MAX_NOTE_LINES, removeNote } from "@/lib/notes";
import { runAction } from "@/server/access/action";
import { requireLogFolder, requireSourceRoot } from "@/server/source/context";
import { inWorker } from "@/server/workers/log-worker";

const ZId = z.string().min(1).max(1024);
const ZAdd = z.object({
  id: ZId,
  generation: z.string().min(1).max(200),
  line: z.number().int().min(1),
  /** The last line of a range (a note on lines `line`–`to`). */
  to: z.number().int().min(1).optional(),
  text: z.string().max(10_000),
});
const ZRemove = z.object({ id: ZId, note: z.string().min(1).max(100) });

/**
 * Marks (empty text) or notes a line: its text is read now, so the note keeps the line's hash. Notes live in
 * the source's admin state, never in the chat's files: a bundle's own state takes them too, so support can
 * annotate what it received.
 */
export async function addNoteAction(input: unknown) {
  return runAction(ZAdd, input, async ({ id, generation, line, to, text }, ctx) => {
    const { logDir, compress } = requireLogFolder(ctx);
    const last = to ?? line;
    if (last < line)
      throw new OdaError("bad_input", `A note's range ends (line ${last}) before it starts (line ${line}).`);
    if (last - line + 1 > MAX_NOTE_LINES)
      throw new OdaError("bad_input", `A note spans at most ${MAX_NOTE_LINES} lines.`);
    const count = last - line + 1;
    const read = await inWorker("readLines", logDir, id, { from: line, count, generation, compress });
    const found = read.lines.filter((l, i) => l.n === line + i);
    if (found.length !== count) throw new OdaError("not_found", `Chat "${id}" has no line ${line + found.length}.`);
    return addNote(requireSourceRoot(ctx, "state"), {
      chat: id,
      generation: read.generation,
      line,
      to: last,
      lineText: found.map((l) => l.raw).join("\n"),
      text,
    });
  });
}

/** Removes a mark or note. */
export async function removeNoteAction(input: unknown) {
  return runAction(ZRemove, input, ({ id, note }, ctx) => removeNote(requireSourceRoot(ctx, "state"), id, note));
}
