import { closeSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openRegularSync } from "../fs/open-regular";

/**
 * The log folder's form: `sessions.compress` in `<Oda home>/settings.json`
 * (default true). A missing home or file, or a value that is not a boolean,
 * gives the default; the memory domain reports settings problems.
 */
export function readCompressSetting(home: string | null): boolean {
  if (!home) return true;
  try {
    // A FIFO named settings.json is refused at once (the default is used) instead of blocking.
    const { fd } = openRegularSync(join(home, "settings.json"));
    let text: string;
    try {
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
    const settings = JSON.parse(text) as { sessions?: { compress?: unknown } };
    const value = settings?.sessions?.compress;
    return typeof value === "boolean" ? value : true;
  } catch {
    return true;
  }
}
