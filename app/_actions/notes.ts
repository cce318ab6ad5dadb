"use server";

import { z } from "zod";
import { addNote, removeNote } from "@/lib/notes";
import { runAction } from "@/server/action";
import { requireLogFolder } from "@/server/chat-inspector";
import { inWorker } from "@/server/log-worker";
import { requireState } from "@/server/roots";

const ZId = z.string().min(1).max(1024);
const ZAdd = z.object({
  id: ZId,
  generation: z.string().min(1).max(200),
  line: z.number().int().min(1),
  text: z.string().max(10_000),
});
const ZRemove = z.object({ id: ZId, note: z.string().min(1).max(100) });

/** Marks (empty text) or notes a line: its text is read now, so the note keeps the line's hash. */
export async function addNoteAction(input: unknown) {
  return runAction(
    ZAdd,
    input,
    async ({ id, generation, line, text }) => {
      const { logDir, compress } = requireLogFolder();
      const read = await inWorker("readLines", logDir, id, { from: line, count: 1, generation, compress });
      const found = read.lines[0];
      if (!found || found.n !== line) throw new Error(`Chat "${id}" has no line ${line}.`);
      return addNote(requireState(), { chat: id, generation: read.generation, line, lineText: found.raw, text });
    },
    { writes: true },
  );
}

/** Removes a mark or note. */
export async function removeNoteAction(input: unknown) {
  return runAction(ZRemove, input, ({ id, note }) => removeNote(requireState(), id, note), { writes: true });
}
