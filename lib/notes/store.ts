import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { OdaError } from "../errors";
import { writeFileAtomic } from "../fs/atomic";

/**
 * Marks and notes on chat lines (issue 29), kept in the admin state, one file
 * per chat under `<state>/notes/` named by the hash of the chat's id (ids are
 * data, never paths). Each note holds its line's number and the SHA-256 of the
 * line's text: an append leaves both as they were, so the note stays; a line
 * that changed (a rewritten or replaced log) no longer matches its hash, and
 * the note is reported lost, never moved to another line.
 */

/** One mark (no text) or note on a line of a chat's log. */
export const ZNote = z.object({
  id: z.string().min(1).max(100),
  chat: z.string().min(1).max(1024),
  /** The log the line is in (its generation's file name). */
  generation: z.string().min(1).max(200),
  line: z.number().int().min(1),
  /** A note on a range: its last line (absent for one line). */
  to: z.number().int().min(2).optional(),
  /** SHA-256 (hex) of the line's text when the note was made (of a range: its lines' texts, joined by line ends). */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  /** Empty for a mark. */
  text: z.string().max(10_000),
  created: z.string(),
});
export type Note = z.infer<typeof ZNote>;

const ZNotesFile = z.object({ chat: z.string(), notes: z.array(ZNote) });

/** How a note's line reads now. */
export type NoteState = "kept" | "lost";

/** The most lines one note may span. */
export const MAX_NOTE_LINES = 1000;

/** How many lines a note is on. */
export function noteSpan(note: Pick<Note, "line" | "to">): number {
  return (note.to ?? note.line) - note.line + 1;
}

/** The SHA-256 of a line's text, as notes keep it. */
export function lineHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function notesFolder(stateDir: string): string {
  return join(stateDir, "notes");
}

/** The name of a chat's notes file (in `<state>/notes/`, and in a bundle's `notes/`). */
export function notesFileName(chat: string): string {
  return `${createHash("sha256").update(chat).digest("hex").slice(0, 32)}.json`;
}

function notesFile(stateDir: string, chat: string): string {
  return join(notesFolder(stateDir), notesFileName(chat));
}

/** A notes file's text, as the store writes it. */
export function notesFileText(chat: string, notes: Note[]): string {
  return `${JSON.stringify({ chat, notes }, null, 2)}\n`;
}

/**
 * Copies the notes files of an opened bundle (its `notes/` folder) into `stateDir`'s notes, each
 * checked and named again from the chat it holds (a file's name is never trusted as a path).
 */
export async function importNotes(fromDir: string, stateDir: string): Promise<number> {
  let names: string[];
  try {
    names = readdirSync(fromDir).filter((n) => /^[0-9a-f]{32}\.json$/.test(n));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  let count = 0;
  for (const name of names) {
    let parsed: ReturnType<typeof readFile>;
    try {
      parsed = readFile(join(fromDir, name));
    } catch {
      throw new OdaError("unusable", `The bundle's notes/${name} is not a notes file of Oda Admin.`);
    }
    if (!parsed?.notes.every((n) => n.chat === parsed.chat))
      throw new OdaError("unusable", `The bundle's notes/${name} is not a notes file of Oda Admin.`);
    mkdirSync(notesFolder(stateDir), { recursive: true });
    await writeFileAtomic(notesFile(stateDir, parsed.chat), notesFileText(parsed.chat, parsed.notes));
    count += parsed.notes.length;
  }
  return count;
}

function readFile(path: string): z.infer<typeof ZNotesFile> | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  const parsed = ZNotesFile.safeParse(value);
  if (!parsed.success) throw new OdaError("unusable", `${path} is not a notes file of Oda Admin.`);
  return parsed.data;
}

/** The notes of one chat, in line order. */
export function readNotes(stateDir: string, chat: string): Note[] {
  const file = readFile(notesFile(stateDir, chat));
  return (file?.chat === chat ? file.notes : [])
    .slice()
    .sort((a, b) => a.line - b.line || a.created.localeCompare(b.created));
}

/** Every chat that has notes, with its notes. */
export function readAllNotes(stateDir: string): { chat: string; notes: Note[] }[] {
  let names: string[];
  try {
    names = readdirSync(notesFolder(stateDir)).filter((n) => /^[0-9a-f]{32}\.json$/.test(n));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const all = names.flatMap((n) => {
    const file = readFile(join(notesFolder(stateDir), n));
    return file?.notes.length ? [{ chat: file.chat, notes: readNotes(stateDir, file.chat) }] : [];
  });
  return all.sort((a, b) => a.chat.localeCompare(b.chat));
}

/** How many marks and notes each chat with any has. */
export function noteCounts(stateDir: string): Map<string, number> {
  return new Map(readAllNotes(stateDir).map((c) => [c.chat, c.notes.length]));
}

// Writes of one process to the notes, one after another (read, change, replace).
let queue: Promise<unknown> = Promise.resolve();

async function changeNotes(stateDir: string, chat: string, change: (notes: Note[]) => Note[]): Promise<Note[]> {
  const run = queue.then(async () => {
    mkdirSync(notesFolder(stateDir), { recursive: true });
    const path = notesFile(stateDir, chat);
    const notes = change(readFile(path)?.notes ?? []);
    await writeFileAtomic(path, notesFileText(chat, notes));
    return notes;
  });
  queue = run.catch(() => {});
  return run;
}

/**
 * Adds a mark (empty text) or a note on a line whose text is `lineText`, or on the lines `line`–`to` whose
 * texts joined by line ends are `lineText`; a second mark on a line is refused.
 */
export async function addNote(
  stateDir: string,
  input: { chat: string; generation: string; line: number; to?: number; lineText: string; text: string },
): Promise<Note> {
  const to = input.to !== undefined && input.to !== input.line ? input.to : undefined;
  if (to !== undefined && to < input.line)
    throw new OdaError("bad_input", `A note's range ends (line ${to}) before it starts (line ${input.line}).`);
  if (to !== undefined && to - input.line + 1 > MAX_NOTE_LINES)
    throw new OdaError("bad_input", `A note spans at most ${MAX_NOTE_LINES} lines.`);
  const note: Note = {
    id: randomUUID(),
    chat: input.chat,
    generation: input.generation,
    line: input.line,
    ...(to !== undefined ? { to } : {}),
    hash: lineHash(input.lineText),
    text: input.text.trim(),
    created: new Date().toISOString(),
  };
  await changeNotes(stateDir, input.chat, (notes) => {
    if (!note.text && notes.some((n) => !n.text && n.line === note.line && n.generation === note.generation))
      throw new OdaError("conflict", `Line ${note.line} is marked already.`);
    return [...notes, note];
  });
  return note;
}

/** Removes one note; a note that is not there is refused. */
export async function removeNote(stateDir: string, chat: string, id: string): Promise<void> {
  await changeNotes(stateDir, chat, (notes) => {
    if (!notes.some((n) => n.id === id)) throw new OdaError("not_found", "That note is not there any more.");
    return notes.filter((n) => n.id !== id);
  });
}

/** Each note with whether its line still reads as it did (`lineText`: the line's text now, or null if gone). */
export async function judgeNotes(
  notes: Note[],
  lineText: (note: Note) => Promise<string | null>,
): Promise<(Note & { state: NoteState })[]> {
  const out: (Note & { state: NoteState })[] = [];
  for (const note of notes) {
    const text = await lineText(note).catch(() => null);
    out.push({ ...note, state: text !== null && lineHash(text) === note.hash ? "kept" : "lost" });
  }
  return out;
}
