import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OdaError } from "../errors";
import { type PlannedFile, runRepair } from "./engine";
import { changedSentence, readOdaFile, sameFact } from "./files";
import { factOf, isRepairId, type Journal, journalFolder, listJournals, readJournal, writeJournal } from "./journal";
import { parseTarget, targetId } from "./targets";

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

/**
 * The repair `text` names: a repair's own id (`repair done`), or the id a
 * repair was offered under (`repair list`: `form:<chat>`, `memory:global/<id>`,
 * …), which names the latest repair made of it.
 */
export function findRepair(state: string, text: string): Journal {
  if (isRepairId(text)) {
    const journal = readJournal(state, text);
    if (journal) return journal;
  }
  let offer: string | null = null;
  try {
    offer = targetId(parseTarget(text));
  } catch {}
  if (offer === null)
    throw new OdaError(
      "not_found",
      `No repair "${text}" is in the admin state; oda-admin repair done lists the repairs made, with their ids.`,
    );
  // Newest first: the latest repair made of that offer.
  const latest = listJournals(state).find((j) => j.kind !== "undo" && `${j.kind}:${j.subject}` === offer);
  if (!latest)
    throw new OdaError(
      "not_found",
      `No repair of ${offer} was made; oda-admin repair done lists the repairs made, with their ids.`,
    );
  return latest;
}

/**
 * Puts back every byte a repair changed; returns the undo's journal. `id` is
 * the repair's id, or the id it was offered under (`findRepair`).
 */
export async function undoRepair(state: string, text: string): Promise<Journal> {
  const original = findRepair(state, text);
  const id = original.id;
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
