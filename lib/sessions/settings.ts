import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The log folder's form: `sessions.compress` in `<Oda home>/settings.json`
 * (default true). A missing home or file, or a value that is not a boolean,
 * gives the default; the memory domain reports settings problems.
 */
export function readCompressSetting(home: string | null): boolean {
  if (!home) return true;
  try {
    const settings = JSON.parse(readFileSync(join(home, "settings.json"), "utf8")) as {
      sessions?: { compress?: unknown };
    };
    const value = settings?.sessions?.compress;
    return typeof value === "boolean" ? value : true;
  } catch {
    return true;
  }
}
