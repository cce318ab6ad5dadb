/**
 * `lib/notes`: marks and notes on chat lines, in the admin state (issue 29).
 *
 * - `addNote`, `removeNote`, `readNotes`, `readAllNotes` (`store.ts`).
 * - `checkedNotes(stateDir, logDir, {chat?, compress})`: every note with whether its line
 *   (each line of its range) still reads as it did (`kept`) or changed or is gone (`lost`).
 */

import { readLines } from "../chats/read";
import { judgeNotes, type Note, type NoteState, noteSpan, readAllNotes, readNotes } from "./store";

export {
  addNote,
  importNotes,
  judgeNotes,
  lineHash,
  MAX_NOTE_LINES,
  type Note,
  type NoteState,
  noteCounts,
  noteSpan,
  notesFileName,
  notesFileText,
  readAllNotes,
  readNotes,
  removeNote,
  ZNote,
} from "./store";

/** A note with the state of its line now. */
export type CheckedNote = Note & { state: NoteState };

/** The notes (of one chat, or of every chat) with whether each line still reads as it did. */
export async function checkedNotes(
  stateDir: string,
  logDir: string,
  options: { chat?: string; compress?: boolean },
): Promise<CheckedNote[]> {
  const notes =
    options.chat === undefined ? readAllNotes(stateDir).flatMap((c) => c.notes) : readNotes(stateDir, options.chat);
  return judgeNotes(notes, async (note) => {
    const count = noteSpan(note);
    const read = await readLines(logDir, note.chat, {
      from: note.line,
      count,
      generation: note.generation,
      compress: options.compress,
    });
    // Every line of a range, each whole: one missing or changed loses the note.
    const whole = read.lines.filter((l, i) => l.n === note.line + i && l.length === undefined);
    return whole.length === count ? whole.map((l) => l.raw).join("\n") : null;
  });
}
