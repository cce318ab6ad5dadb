/**
 * `lib/notes`: marks and notes on chat lines, in the admin state (issue 29).
 *
 * - `addNote`, `removeNote`, `readNotes`, `readAllNotes` (`store.ts`).
 * - `checkedNotes(stateDir, logDir, {chat?, compress})`: every note with whether its line
 *   still reads as it did (`kept`) or changed or is gone (`lost`).
 */

import { readLines } from "../sessions/read";
import { judgeNotes, type Note, type NoteState, readAllNotes, readNotes } from "./store";

export {
  addNote,
  importNotes,
  judgeNotes,
  lineHash,
  type Note,
  type NoteState,
  noteCounts,
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
    const read = await readLines(logDir, note.chat, {
      from: note.line,
      count: 1,
      generation: note.generation,
      compress: options.compress,
    });
    const line = read.lines[0];
    return line && line.n === note.line && line.length === undefined ? line.raw : null;
  });
}
