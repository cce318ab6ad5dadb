import { promises as fsp } from "node:fs";
import { join } from "node:path";
import { resolveInside } from "../fs";
import { findMemory } from "./details";
import { listVersionNames } from "./history";
import { isMemoryId } from "./names";
import { listSetKeys } from "./overview";
import { parseMemorySource } from "./parse";
import { historySetSegments } from "./paths";
import { mapPool } from "./read-file";
import { readVersionFile } from "./versions";

/** A memory a chat saved or changed: the versions that hold what the chat wrote, and whether its current text is the chat's. */
export interface ChatMemory {
  workspace: string | null;
  id: string;
  /** The newest title the chat gave it. */
  title: string;
  /** True when the memory's current text is what this chat wrote. */
  current: boolean;
  /** True when the memory is deleted (its history remains). */
  deleted: boolean;
  /** Names of the `-chat` versions this chat wrote, newest first. */
  versions: string[];
}

/**
 * Every memory chat `sessionId` saved or changed, from the history: each
 * `-chat` version holds the file a chat wrote, whose `sessionId` names the
 * chat; the current file counts when its state is `chat` and it names the
 * chat. Only `-chat` versions are opened (the source is in the name).
 */
export async function chatMemories(home: string, sessionId: string): Promise<ChatMemory[]> {
  const out: ChatMemory[] = [];
  for (const workspace of await listSetKeys(home)) {
    const folder = await resolveInside(home, ...historySetSegments(workspace));
    const ids = (await fsp.readdir(folder).catch(() => [] as string[])).filter(isMemoryId).sort();
    const found = await mapPool(ids, 16, async (id): Promise<ChatMemory | null> => {
      const history = join(folder, id);
      const names = (await listVersionNames(history)).filter((v) => v.source === "chat");
      const versions: { name: string; title: string }[] = [];
      for (const v of names) {
        const info = await readVersionFile(history, v);
        const parsed = info?.ok && info.raw !== null ? parseMemorySource(info.raw) : null;
        if (parsed?.ok && parsed.fields.sessionId === sessionId) versions.push({ name: v.name, title: parsed.title });
      }
      const live = await findMemory(home, workspace, id).catch(() => null);
      const current = !!live?.ok && live.state.source === "chat" && live.fields.sessionId === sessionId;
      if (!current && !versions.length) return null;
      return {
        workspace,
        id,
        title: current && live?.ok ? live.title : (versions[0]?.title ?? ""),
        current,
        deleted: live === null,
        versions: versions.map((v) => v.name),
      };
    });
    for (const m of found) if (m) out.push(m);
  }
  return out;
}
