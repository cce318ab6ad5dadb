import { realpathSync } from "node:fs";
import { join } from "node:path";
import { isInside } from "../fs/safe-path";
import { readSettingsFile } from "../fs/settings-file";

/**
 * The log folder's form: `sessions.compress` in `<Oda home>/settings.json`
 * (default true), read through the one settings reader. A missing home or
 * file, a file that is not a regular one, a symbolic link that leads out of
 * the home, or a value that is not a boolean gives the default; the memory
 * domain reports settings problems (`readSettings`, which refuses the link
 * out of the home the same way).
 */
export function readCompressSetting(home: string | null): boolean {
  if (!home) return true;
  const path = join(home, "settings.json");
  if (!staysInside(home, path)) return true;
  const read = readSettingsFile(path);
  if (!read.ok) return true;
  const value = (read.value as { sessions?: { compress?: unknown } } | null)?.sessions?.compress;
  return typeof value === "boolean" ? value : true;
}

/** True when `path` is absent or its real path lies inside the home's (nothing outside a root is read through a link). */
function staysInside(home: string, path: string): boolean {
  try {
    return isInside(realpathSync(home), realpathSync(path));
  } catch (error) {
    // Absent (the reader gives the default) or a link loop (the reader's open fails the same way).
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ELOOP" || code === "ENOTDIR";
  }
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
