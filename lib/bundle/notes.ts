import { createHash } from "node:crypto";
import { readLines } from "../chats/read";
import { lineHash, type Note, noteSpan, notesFileName, notesFileText, readNotes } from "../notes";
import { redactLine } from "./redact-log";
import type { Redactor } from "./redactor";
import type { StagedFile } from "./stage";

/**
 * The admin state's notes on the bundle's chats (`bundle create --notes`), as
 * `notes/<name>.json` files in the store's own form, so that a bundle opened
 * shows them. Every text is redacted like the rest of the bundle (the chat's
 * id as the logs' folders spell it, the note's text as any text), and a note
 * whose line still reads as it did is given the hash of the line as the
 * bundle holds it (redacted), so it is kept there too; a note already lost
 * stays lost.
 */
export async function bundleNotes(
  stateDir: string,
  logDir: string | null,
  chats: string[],
  o: { redactor: Redactor; dropText: boolean; compress: boolean },
): Promise<StagedFile[]> {
  const out: StagedFile[] = [];
  for (const chat of [...new Set(chats)].sort()) {
    const notes = readNotes(stateDir, chat);
    if (!notes.length) continue;
    const redactedChat = o.redactor.redactText(chat);
    o.redactor.file = `notes/${notesFileName(redactedChat)}`;
    const moved: Note[] = [];
    for (const note of notes) {
      let hash = note.hash;
      if (logDir) {
        const count = noteSpan(note);
        const read = await readLines(logDir, chat, {
          from: note.line,
          count,
          generation: note.generation,
          compress: o.compress,
        }).catch(() => null);
        const whole = (read?.lines ?? []).filter((l, i) => l.n === note.line + i && l.length === undefined);
        if (whole.length === count && lineHash(whole.map((l) => l.raw).join("\n")) === note.hash)
          hash = lineHash(whole.map((l) => redactLine(l.raw, o.redactor, o.dropText)).join("\n"));
      }
      moved.push({ ...note, chat: redactedChat, hash, text: o.redactor.redactText(note.text) });
    }
    const data = Buffer.from(notesFileText(redactedChat, moved));
    out.push({
      path: `notes/${notesFileName(redactedChat)}`,
      size: data.length,
      sha256: createHash("sha256").update(data).digest("hex"),
      from: { data },
      redacted: moved.some((n, i) => n.text !== notes[i]?.text) || redactedChat !== chat,
    });
  }
  return out;
}
