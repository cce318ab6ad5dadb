import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OdaError } from "../errors";
import { type PlannedFile, runRepair } from "./engine";
import { changedSentence, readOdaFile, sameFact } from "./files";
import { factOf, type Journal, journalFolder, readJournal, writeJournal } from "./journal";

/**
 * Undo: a repair of its own (kind `undo`, with its own journal, so a kill
 * during an undo is finished or rolled back like any repair) whose plan is the
 * original's inverse: every kept original is written back byte for byte, every
 * file the repair created is moved into the admin state, and a folder the
 * repair removed is made again. Refused when a file changed since the repair.
 */

function keptBytes(state: string, journal: Journal, keep: string, sha256: string): Buffer {
  const bytes = readFileSync(join(journalFolder(state, journal.id), keep));
  if (factOf(bytes).sha256 !== sha256)
    throw new OdaError("unusable", `The kept copy ${keep} of repair ${journal.id} is damaged; nothing was changed.`);
  return bytes;
}

/** Puts back every byte repair `id` changed; returns the undo's journal. */
export async function undoRepair(state: string, id: string): Promise<Journal> {
  const original = readJournal(state, id);
  if (!original) throw new OdaError("not_found", `No repair "${id}" is in the admin state.`);
  if (original.kind === "undo")
    throw new OdaError("refused", `Repair ${id} is an undo; apply the repair again instead.`);
  if (original.phase !== "done")
    throw new OdaError(
      "refused",
      `Repair ${id} did not finish (${original.phase}); run oda-admin repair resume first.`,
    );
  if (original.undoneBy) throw new OdaError("refused", `Repair ${id} was already undone by ${original.undoneBy}.`);
  const chatDirGone = original.lock.type === "chat" && original.dirs.remove.includes(original.lock.dir);
  const undo = await runRepair({
    state,
    kind: "undo",
    subject: original.subject,
    lock: original.lock,
    undoOf: id,
    makeDirs: chatDirGone && original.lock.type === "chat" ? [original.lock.dir] : [],
    async plan() {
      const files: PlannedFile[] = original.files.map((f) => {
        const now = readOdaFile(f.path);
        if (!sameFact(now ? factOf(now) : null, f.after ? { size: f.after.size, sha256: f.after.sha256 } : null))
          throw new OdaError("conflict", changedSentence(f.path));
        return {
          path: f.path,
          before: now,
          after: f.before ? keptBytes(state, original, f.before.keep, f.before.sha256) : null,
        };
      });
      return {
        summary: `Undo repair ${id}: ${original.summary}`,
        files,
        dirs: { remove: original.dirs.create },
      };
    },
  });
  await markUndone(state, id, undo.id);
  return undo;
}

/** Records on the original that an undo of it finished (also called by resume). */
export async function markUndone(state: string, id: string, undoId: string): Promise<void> {
  const original = readJournal(state, id);
  if (!original || original.undoneBy === undoId) return;
  await writeJournal(state, { ...original, undoneBy: undoId });
}
