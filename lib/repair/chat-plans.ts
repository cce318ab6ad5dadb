import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { listGenerations, readChatFolder } from "../chats/chat";
import { locateChat, locateCopies } from "../chats/folder";
import { CACHE_FILE, LOCK_FILE, logFileName } from "../chats/names";
import { OdaError } from "../errors";
import { type DecodedLog, decodeLog, encodeLog, rebuildCheckpoint, verifyConverted } from "./convert";
import type { PlannedFile, RepairPlan } from "./engine";
import { readOdaFile } from "./files";

/**
 * Planners of the chat repairs. Each reads the chat folder and returns the
 * files to change; it runs once for the preview (no lock) and again under the
 * chat's `session.lock` for the repair itself, so what is written matches what
 * the disk holds at that moment.
 */

function mustRead(path: string): Buffer {
  const bytes = readOdaFile(path);
  if (!bytes) throw new OdaError("not_found", `${path} no longer exists; nothing was changed.`);
  return bytes;
}

/** Wrong form: every log of the other form is converted to the folder's form; the checkpoint is rebuilt. */
export async function planForm(logDir: string, id: string, compress: boolean): Promise<RepairPlan> {
  const loc = locateChat(logDir, id);
  const names = readdirSync(loc.dir);
  const gens = listGenerations(loc.dir, readChatFolder(loc), compress);
  // a FIFO or a link leading outside is refused too, but is not a log of the other form to convert
  const wrong = gens.filter((g) => g.refused && !g.blocked);
  if (!wrong.length) throw new OdaError("refused", `Chat "${id}" has no log of the wrong form; nothing to repair.`);
  const newest = Math.max(...gens.map((g) => g.format));
  const files: PlannedFile[] = [];
  const sources = new Map<string, DecodedLog>();
  for (const g of wrong) {
    const name = logFileName(g.format, compress);
    if (names.includes(name))
      throw new OdaError(
        "refused",
        `Chat "${id}" holds ${g.name} and ${name}, the same log in both forms; compare them by hand. Nothing was converted.`,
      );
    const decoded = await decodeLog(g.path, g.compressed);
    const after = await encodeLog(decoded.data, compress);
    const target = join(loc.dir, name);
    sources.set(target, decoded);
    files.push({ path: g.path, before: mustRead(g.path), after: null }, { path: target, before: null, after });
    if (g.format === newest && names.includes(CACHE_FILE)) {
      const cache = join(loc.dir, CACHE_FILE);
      const checkpoint = rebuildCheckpoint(decoded, after, { name, id, cwd: loc.cwd });
      files.push({
        path: cache,
        before: mustRead(cache),
        after: Buffer.from(`${JSON.stringify(checkpoint, null, 2)}\n`),
      });
    }
  }
  const form = compress ? "zstd-compressed" : "plain";
  return {
    summary: `Convert ${wrong.map((g) => g.name).join(", ")} of chat "${id}" to the folder's ${form} form.`,
    files,
    async verify(file, staged) {
      const source = sources.get(file.path);
      if (source) await verifyConverted(staged, compress, source);
    },
  };
}

/** The chat folders holding chat `id` (two or more when it is stored in two places). */
export function findCopies(logDir: string, id: string): string[] {
  const found = locateCopies(logDir, id);
  if (!found.length) locateChat(logDir, id); // throws the unknown id's sentence
  return found.map((c) => c.dir);
}

/** Every file of a chat folder to move (all regular files but the lock the repair holds). */
function folderFiles(dir: string): PlannedFile[] {
  return readdirSync(dir)
    .filter((name) => name !== LOCK_FILE)
    .sort()
    .map((name) => {
      const path = join(dir, name);
      if (!lstatSync(path).isFile())
        throw new OdaError(
          "refused",
          `${path} is not a regular file; set the folder aside by hand. Nothing was moved.`,
        );
      return { path, before: mustRead(path), after: null };
    });
}

/** Stored in two places: the chosen copy's folder is moved whole into the admin state. */
export async function planSetAsideCopy(logDir: string, id: string, dir: string): Promise<RepairPlan> {
  const copies = findCopies(logDir, id);
  if (copies.length < 2)
    throw new OdaError("refused", `Chat "${id}" is stored in one place only; nothing to set aside.`);
  if (!copies.includes(dir))
    throw new OdaError("bad_input", `Choose one of the two copies of chat "${id}": ${copies.join(" or ")}.`);
  return {
    summary: `Set aside the copy of chat "${id}" in ${dir}; the copy in ${copies.find((c) => c !== dir)} stays.`,
    files: folderFiles(dir),
    dirs: { remove: [dir] },
  };
}

/** Older generations: the chosen logs older than the chat's newest format are moved into the admin state. */
export async function planArchive(logDir: string, id: string, compress: boolean, only?: string[]): Promise<RepairPlan> {
  const loc = locateChat(logDir, id);
  const gens = listGenerations(loc.dir, readChatFolder(loc), compress);
  const newest = Math.max(0, ...gens.map((g) => g.format));
  const older = gens.filter((g) => g.format < newest && (!only || only.includes(g.name)));
  if (!older.length) throw new OdaError("refused", `Chat "${id}" has no older log generation to archive.`);
  return {
    summary: `Archive ${older.map((g) => g.name).join(", ")} of chat "${id}" into the admin state.`,
    files: older.map((g) => ({ path: g.path, before: mustRead(g.path), after: null })),
  };
}
