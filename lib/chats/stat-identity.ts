import { type BigIntStats, statSync } from "node:fs";

/**
 * A file modified within this long of the moment it was verified (or after it) is "racy" and is verified
 * again (`docs/file-contract.md`, "What Oda Admin may remember between listings"; git's rule): a change made
 * in the same tick of the file system's clock as the verification leaves the same size and time.
 */
export const RACY_MS = 2000;
/** `RACY_MS` in nanoseconds. */
export const RACY_NS = BigInt(RACY_MS) * 1_000_000n;

/** A file's identity as the listing's memory keeps it: `dev:ino:size:mtimeNs:ctimeNs`, or `-` when absent. */
export function statIdentity(st: BigIntStats | undefined): string {
  return st ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : "-";
}

/** A path's identity now (`-` when it does not exist). */
export function identityNow(path: string): string {
  return statIdentity(statSync(path, { bigint: true, throwIfNoEntry: false }));
}

/**
 * True when the path's identity now is `expected` and the file was not modified within 2 seconds of
 * `verifiedNs` (or after it): what the listing's memory asks of each of a chat's three files, with one stat
 * and no string split (an absent file is `-`, never racy; a path that cannot be looked at is not the same).
 */
export function sameAndSettled(path: string, expected: string, verifiedNs: bigint): boolean {
  let st: BigIntStats | undefined;
  try {
    st = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    // Not looked at (a link loop, a folder made unreadable since the walk): the full rule reads the chat and
    // says what is wrong with it; the listing goes on.
    return false;
  }
  if (statIdentity(st) !== expected) return false;
  return !st || st.mtimeNs + RACY_NS < verifiedNs;
}

/**
 * The identities of a chat's folder, newest log and checkpoint, taken before
 * the full rule read them (`summarizeChat` with `identify`), so a change made
 * while they were read shows as a changed identity at the next listing.
 */
export interface VerifiedStamps {
  /** The log folder's real path (`ChatLocation.root`). */
  root: string;
  dir: string;
  /** The newest log's name (`null`: none). */
  logName: string | null;
  log: string;
  checkpoint: string;
}
