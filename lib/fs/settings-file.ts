import { closeSync, readFileSync, statSync } from "node:fs";
import { isOdaError } from "../errors";
import { describeFileKind, openRegularSync } from "./open-regular";

/**
 * The one reader of a `settings.json` (the Oda home's, and the admin state's):
 * through the regular-file open (a FIFO or device named settings.json is
 * refused at once instead of blocking), then parsed as JSON. It says why a
 * file could not be used and leaves the sentence to its caller: the memory
 * domain reports the home's problems (`lib/memory/settings.ts`), the log
 * limits the admin state's (`lib/chats/limits.ts`), and the log folder's
 * form takes the default quietly, since those two report them
 * (`lib/chats/settings.ts`).
 */
export type SettingsFileRead =
  /** Read and parsed (`missing`: no file, `value` is `{}`). */
  | { ok: true; value: unknown; missing: boolean }
  /** Not a regular file: `kind` says what it is ("a FIFO (named pipe)", "a folder", …). */
  | { ok: false; reason: "not-regular"; kind: string }
  /** The system would not give it: its error code and message. */
  | { ok: false; reason: "system"; code: string | undefined; message: string }
  /** Not JSON: the parser's message. */
  | { ok: false; reason: "json"; message: string };

/** Reads and parses the settings file at `path` (see {@link SettingsFileRead}). */
export function readSettingsFile(path: string): SettingsFileRead {
  let text: string;
  try {
    const { fd } = openRegularSync(path);
    try {
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (isOdaError(error)) {
      let kind = "not a regular file";
      try {
        kind = describeFileKind(statSync(path));
      } catch {
        // gone since: the open's sentence stands
      }
      return { ok: false, reason: "not-regular", kind };
    }
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === "ENOENT") return { ok: true, value: {}, missing: true };
    return { ok: false, reason: "system", code, message };
  }
  try {
    return { ok: true, value: JSON.parse(text), missing: false };
  } catch (error) {
    return { ok: false, reason: "json", message: (error as Error).message };
  }
}
