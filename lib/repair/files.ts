import { closeSync, constants, fsyncSync, openSync, readFileSync, writeSync } from "node:fs";
import { OdaError } from "../errors";
import { openRegularSync } from "../fs/open-regular";
import { type FileFact, factOf } from "./journal";

/**
 * File helpers of the repair engine. Files in Oda's folders are opened with
 * `openRegularSync` (no symlink followed, a FIFO refused, never blocking).
 */

/** The whole content of a regular file in Oda's folders; `null` when it does not exist. */
export function readOdaFile(path: string): Buffer | null {
  let opened: ReturnType<typeof openRegularSync>;
  try {
    opened = openRegularSync(path, { noFollow: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    return readFileSync(opened.fd);
  } finally {
    closeSync(opened.fd);
  }
}

/** Size and SHA-256 of a file in Oda's folders; `null` when it does not exist. */
export function factOfPath(path: string): FileFact | null {
  const bytes = readOdaFile(path);
  return bytes ? factOf(bytes) : null;
}

/** True when two facts (or absences) are the same bytes. */
export function sameFact(a: FileFact | null, b: FileFact | null): boolean {
  if (!a || !b) return a === b;
  return a.size === b.size && a.sha256 === b.sha256;
}

/**
 * Writes `bytes` to a new file (exclusive create), fsyncs it, and reads it
 * back to prove the disk holds exactly those bytes.
 */
export function writeVerified(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const back = readFileSync(path);
  const want = factOf(bytes);
  if (!sameFact(factOf(back), want))
    throw new OdaError("io", `${path} does not read back as written; the repair was stopped and nothing was changed.`);
}

/** The refusal when a file no longer is what the repair (or its preview) saw. */
export function changedSentence(path: string): string {
  return `${path} changed since the repair was prepared; nothing more was changed. Look at the file, then try again.`;
}
