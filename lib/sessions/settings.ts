import { join } from "node:path";
import { readSettingsFile } from "../fs/settings-file";

/**
 * The log folder's form: `sessions.compress` in `<Oda home>/settings.json`
 * (default true), read through the one settings reader. A missing home or
 * file, or a value that is not a boolean, gives the default; the memory
 * domain reports settings problems (`readSettings`).
 */
export function readCompressSetting(home: string | null): boolean {
  if (!home) return true;
  const read = readSettingsFile(join(home, "settings.json"));
  if (!read.ok) return true;
  const value = (read.value as { sessions?: { compress?: unknown } } | null)?.sessions?.compress;
  return typeof value === "boolean" ? value : true;
}

/** The log folder and its form: what every reader of chats needs. */
export interface LogFolder {
  /** The log folder, or null when none is set. */
  dir: string | null;
  /** Whether its chats are stored compressed (`sessions.compress` of the home's settings). */
  compress: boolean;
}

/**
 * The log folder and its form, worked out from the roots in one place (the dashboard's source context, the
 * CLI's commands and the lib's readers of a whole installation all call this).
 */
export function logFolderOf(roots: { home: string | null; logs: string | null }): LogFolder {
  return { dir: roots.logs, compress: readCompressSetting(roots.home) };
}
