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
