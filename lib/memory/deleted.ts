import { promises as fsp } from "node:fs";
import { join } from "node:path";
import { resolveInside } from "../fs";
import { listVersionNames, readDeletedMark } from "./history";
import { checkWorkspace, isMemoryId } from "./names";
import { historySetSegments, setSegments } from "./paths";
import { mapPool } from "./read-file";
import { readVersionFile } from "./versions";

/** A memory under Recently deleted. */
export interface DeletedMemory {
  id: string;
  workspace: string | null;
  title: string;
  deletedAt: string;
  /** The text of its newest version (kept when it was deleted). */
  text: string | null;
  versions: number;
}

/** The memories of a set that are deleted and not back: newest deletion first. */
export async function listDeleted(home: string, workspace: string | null): Promise<DeletedMemory[]> {
  const key = checkWorkspace(workspace);
  const segments = historySetSegments(key);
  const folder = await resolveInside(home, ...segments);
  const setFolder = await resolveInside(home, ...setSegments(key));
  const ids = (await fsp.readdir(folder).catch(() => [] as string[])).filter(isMemoryId);
  const found = await mapPool(ids, 16, async (id): Promise<DeletedMemory | null> => {
    const mark = await readDeletedMark(join(folder, id));
    if (!mark) return null;
    const live = await fsp.lstat(join(setFolder, id)).then(
      () => true,
      () => false,
    );
    if (live) return null;
    const names = await listVersionNames(join(folder, id));
    const newest = names[0] ? await readVersionFile(join(folder, id), names[0]) : null;
    return {
      id,
      workspace,
      title: mark.title,
      deletedAt: mark.deletedAt,
      text: newest?.text ?? null,
      versions: names.length,
    };
  });
  return found.filter((d): d is DeletedMemory => d !== null).sort((a, b) => (a.deletedAt < b.deletedAt ? 1 : -1));
}
