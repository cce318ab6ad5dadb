import { lstatSync, readFileSync, type Stats } from "node:fs";
import { userInfo } from "node:os";
import { dirname } from "node:path";
import { OdaError } from "../errors";

/**
 * A system error on one file or folder of a whole-folder walk (the chat list,
 * the doctor, the index, insights, a bundle) is that item's problem, never the
 * walk's end: like rsync or tar, the rest goes on and the total says how many
 * were left out. This module says which errors are such per-item errors and
 * turns one into the sentence shown for it: the path, what the system answered
 * in words, and what to do (for a permission, the user Oda Admin runs as and
 * the owner and mode of the file or folder that refused it).
 */

/** The system errors that concern one file or folder, not the walk as a whole. */
const PER_ITEM = new Set([
  "EACCES",
  "EPERM",
  "ENOENT",
  "ENOTDIR",
  "EISDIR",
  "EIO",
  "EMFILE",
  "ENFILE",
  "ELOOP",
  "ENAMETOOLONG",
  "ESTALE",
  "ENXIO",
  "ENODEV",
]);

/** True for a Node system error (`code` like `EACCES`, and a `syscall`) that concerns one file or folder. */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  if (!(error instanceof Error) && (typeof error !== "object" || error === null)) return false;
  const e = error as NodeJS.ErrnoException;
  return typeof e.code === "string" && PER_ITEM.has(e.code) && typeof e.syscall === "string";
}

/** True for an error that means the file or folder is no longer there (removed or replaced mid-run). */
export function isVanished(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

let users: Map<number, string> | null = null;

/** A user's name from the system's user list (`/etc/passwd`), or `null`. */
function userName(uid: number): string | null {
  if (!users) {
    users = new Map();
    try {
      for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
        const [name, , id] = line.split(":");
        if (name && id !== undefined && /^\d+$/.test(id) && !users.has(Number(id))) users.set(Number(id), name);
      }
    } catch {
      // No user list: uids are shown as numbers.
    }
  }
  return users.get(uid) ?? null;
}

function who(uid: number): string {
  const name = userName(uid);
  return name === null ? `uid ${uid}` : `${name} (uid ${uid})`;
}

/** The user this process runs as, in words: `nobody (uid 65534)`. */
export function processUser(): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : -1;
  if (uid < 0) {
    try {
      return userInfo().username;
    } catch {
      return "the current user";
    }
  }
  return who(uid);
}

function mode(stat: Stats): string {
  return (stat.mode & 0o7777).toString(8).padStart(4, "0");
}

/**
 * The nearest of `path` and its folders that can be looked at, for a
 * permission: the file itself when its folder lets it be seen, else the first
 * folder up that can be (the one refusing the way in).
 */
function nearestVisible(path: string): { path: string; stat: Stats } | null {
  for (let at = path, i = 0; i < 64; i++) {
    try {
      return { path: at, stat: lstatSync(at) };
    } catch {
      const up = dirname(at);
      if (up === at) return null;
      at = up;
    }
  }
  return null;
}

/** What the system answered, in words, and what to do about it. */
function answer(path: string, error: NodeJS.ErrnoException): string {
  const code = error.code ?? "";
  switch (code) {
    case "EACCES":
    case "EPERM": {
      const seen = nearestVisible(path);
      const what = code === "EPERM" ? "operation not permitted" : "permission denied";
      const owner = seen
        ? `${seen.path} is owned by ${who(seen.stat.uid)} with mode ${mode(seen.stat)}`
        : `the owner and mode of ${path} cannot be seen`;
      return `the system answered "${what}" (${code}): Oda Admin runs as ${processUser()} and ${owner}. Run Oda Admin as a user who may read it, or give that user read access.`;
    }
    case "ENOENT":
      return `it disappeared while it was being read (the system answered "no such file or directory", ENOENT). It was probably removed or moved meanwhile; run the command again to see the folder as it is now.`;
    case "ENOTDIR":
      return `a part of its path is no longer a folder (the system answered "not a directory", ENOTDIR). It was probably replaced meanwhile; run the command again to see the folder as it is now.`;
    case "EISDIR":
      return `it is a folder where a file belongs (the system answered "is a directory", EISDIR). Move the folder out of the way.`;
    case "EIO":
      return `the system answered "input/output error" (EIO): the disk or file system could not deliver it. Check the disk and the system log (dmesg), and copy what can still be read.`;
    case "EMFILE":
    case "ENFILE":
      return `the system answered "too many open files" (${code}): ${code === "EMFILE" ? "this process" : "the whole system"} reached its limit of open files. Raise the limit (ulimit -n) or close other programs, then run the command again.`;
    case "ELOOP":
      return `the system answered "too many levels of symbolic links" (ELOOP): a link in its path loops. Remove or fix the link.`;
    case "ENAMETOOLONG":
      return `the system answered "file name too long" (ENAMETOOLONG). Move it to a shorter path.`;
    case "ESTALE":
      return `the system answered "stale file handle" (ESTALE): the network file system lost it. Mount the share again, then run the command again.`;
    default:
      return `the system answered ${code || "an error"}${error.message ? ` (${oneLine(error.message)})` : ""}.`;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The sentence for a system error on `path`: `<path> cannot be read: the
 * system answered "permission denied" (EACCES): Oda Admin runs as nobody (uid
 * 65534) and it is owned by root (uid 0) with mode 0000. Run Oda Admin as a
 * user who may read it, or give that user read access.` `path` defaults to the
 * path the error names.
 */
export function systemErrorSentence(error: NodeJS.ErrnoException, path?: string): string {
  const at = path ?? error.path ?? "A file";
  return `${at} cannot be read: ${answer(at, error)}`;
}

/**
 * What the system answered on `path` and what to do, without the path in
 * front: the `<reason>` of a sentence that names its file already (a memory's
 * `The file cannot be read: <reason>`).
 */
export function systemErrorReason(error: NodeJS.ErrnoException, path: string): string {
  return answer(path, error);
}

/** The path a system error names (`error.path`), or `fallback`. */
export function systemErrorPath(error: unknown, fallback: string): string {
  const path = (error as NodeJS.ErrnoException | null)?.path;
  return typeof path === "string" && path ? path : fallback;
}

/**
 * A system error as the domain error every surface answers with (CLI,
 * server actions, routes, worker threads): `OdaError("io")` with
 * {@link systemErrorSentence} and the path as data. Any other error is
 * returned as it is. One chat's page, a download or a lock read whose file the
 * system would not give then explains instead of answering "unexpected" (500).
 */
export function systemErrorAsOda(error: unknown): unknown {
  if (!isSystemError(error)) return error;
  const path = typeof error.path === "string" ? error.path : undefined;
  return new OdaError("io", systemErrorSentence(error), {
    cause: error,
    ...(path ? { data: { paths: [path] } } : {}),
  });
}
