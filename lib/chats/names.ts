/**
 * Folder and file names of the log folder (`docs/file-contract.md`, Chat logs >
 * Layout). Working folders and chat ids are encoded the same way: every UTF-8
 * byte outside `A-Z a-z 0-9 . _ -` becomes `%XX` (upper-case hex), and a string
 * of dots only has its dots encoded too.
 */

const SAFE = /^[A-Za-z0-9._-]$/;
/** Names with nothing to encode (the common case) skip the byte-by-byte work. */
const PLAIN_NAME = /^[A-Za-z0-9._-]+$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });
// No Buffer: the chat list in the browser names a working folder's group (`groupName`) too.
const utf8Bytes = new TextEncoder();

/** Encodes a chat id or working folder as a folder name. */
export function encodeName(value: string): string {
  const allDots = /^\.+$/.test(value);
  if (!allDots && PLAIN_NAME.test(value)) return value;
  let out = "";
  for (const byte of utf8Bytes.encode(value)) {
    const ch = String.fromCharCode(byte);
    out += SAFE.test(ch) && !(allDots && ch === ".") ? ch : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/**
 * Decodes a folder name; `null` when it does not decode cleanly: a character
 * outside the safe set, a bad or lower-case escape, bytes that are not UTF-8,
 * or any spelling other than the one `encodeName` would write.
 */
export function decodeName(name: string): string | null {
  if (PLAIN_NAME.test(name)) return /^\.+$/.test(name) ? null : name;
  if (name === "" || !/^(?:[A-Za-z0-9._-]|%[0-9A-F]{2})+$/.test(name)) return null;
  const bytes: number[] = [];
  for (let i = 0; i < name.length; i++) {
    if (name[i] === "%") {
      bytes.push(Number.parseInt(name.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(name.charCodeAt(i));
  }
  let value: string;
  try {
    value = utf8.decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
  return encodeName(value) === name ? value : null;
}

/** The group folder that holds chats without a working folder. */
export const NO_CWD_GROUP = "_no-cwd";

/** The group folder name for a working folder (`null`: `_no-cwd`). */
export function groupName(cwd: string | null): string {
  return cwd === null || cwd === "" ? NO_CWD_GROUP : `--${encodeName(cwd)}--`;
}

/**
 * Reads a group folder name: `{cwd}` (null for `_no-cwd`), or `null` when the
 * name is not a group or its working folder does not decode.
 */
export function parseGroupName(name: string): { cwd: string | null } | null {
  if (name === NO_CWD_GROUP) return { cwd: null };
  if (name.length < 5 || !name.startsWith("--") || !name.endsWith("--")) return null;
  const cwd = decodeName(name.slice(2, -2));
  return cwd === null ? null : { cwd };
}

/** A log file name read by `parseLogName`. */
export interface LogName {
  name: string;
  /** 1 for `session.jsonl`, N for `session.vN.jsonl`. */
  format: number;
  compressed: boolean;
}

const LOG_NAME = /^session(?:\.v([1-9][0-9]*))?\.jsonl(\.zstd)?$/;

/** Reads an exact log file name; any other name (`session.v1.jsonl`, a backup) is `null`. */
export function parseLogName(name: string): LogName | null {
  const match = LOG_NAME.exec(name);
  if (!match) return null;
  const format = match[1] === undefined ? 1 : Number(match[1]);
  if (match[1] !== undefined && format < 2) return null;
  return { name, format, compressed: match[2] !== undefined };
}

/** The file name of a log of `format` in the given form. */
export function logFileName(format: number, compressed: boolean): string {
  return `session${format === 1 ? "" : `.v${format}`}.jsonl${compressed ? ".zstd" : ""}`;
}

/** File names inside a chat folder that are not logs. */
export const LOCK_FILE = "session.lock";
export const CACHE_FILE = "session.cache.json";
