import { closeSync, constants, promises as fsp, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { OdaError } from "../errors";

/**
 * Opening a file that comes from a hostile folder. A FIFO, socket or device
 * named like a log or a memory blocks a plain `open` (or the first read)
 * forever; `O_NONBLOCK` makes the open return at once, and the `fstat` of the
 * open descriptor (not of the path, which could be swapped meanwhile) proves it
 * is a regular file before a byte is read. `O_NONBLOCK` has no effect on reads
 * of a regular file.
 */

/** Options for {@link openRegularSync} and {@link openRegular}. */
export interface OpenRegularOptions {
  /** Refuse a symlink as the last path segment (`O_NOFOLLOW`). */
  noFollow?: boolean;
}

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

function flagsOf(options: OpenRegularOptions | undefined): number {
  return FLAGS | (options?.noFollow ? constants.O_NOFOLLOW : 0);
}

/** What a non-regular file is, in words ("a FIFO", "a folder", …). */
export function describeFileKind(
  stat: Pick<
    Stats,
    "isFIFO" | "isSocket" | "isCharacterDevice" | "isBlockDevice" | "isDirectory" | "isSymbolicLink" | "isFile"
  >,
): string {
  if (stat.isFile()) return "a regular file";
  if (stat.isDirectory()) return "a folder";
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/** The sentence for a path that is not a regular file. */
export function notRegularMessage(path: string, stat: Parameters<typeof describeFileKind>[0]): string {
  return `${path} is ${describeFileKind(stat)}, not a regular file; it is not read.`;
}

/**
 * Opens `path` read-only without blocking and proves it is a regular file.
 * Returns the descriptor (the caller closes it) and its stat. Throws the `fs`
 * error for a missing or unreadable path, and `OdaError("unusable")` with
 * {@link notRegularMessage} for anything but a regular file.
 */
export function openRegularSync(path: string, options?: OpenRegularOptions): { fd: number; stat: Stats } {
  const fd = openSync(path, flagsOf(options));
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (!stat.isFile()) {
    closeSync(fd);
    throw new OdaError("unusable", notRegularMessage(path, stat));
  }
  return { fd, stat };
}

/** A file's first bytes (in the caller's buffer) and its size. */
export interface FileStart {
  /** Bytes read into the buffer, from offset 0. */
  bytes: number;
  size: number;
}

/**
 * Reads the first `buffer.length` bytes of a file its folder's listing showed
 * as a regular file, with one open, one positioned read and a close: the
 * `fstat` is left out when the read itself proves the kind and the size.
 * A short positive read of a regular file ends at its end, so the size is the
 * bytes read. Something else swapped in since the listing cannot pass as one:
 * a FIFO or a socket refuses a positioned read (`ESPIPE`; no byte is taken
 * from it) and a folder any read (`EISDIR`), and the devices that take one
 * fill the buffer (`/dev/zero`) or give nothing (`/dev/null`). A read that
 * fails, is empty or fills the buffer is therefore followed by the `fstat`,
 * which refuses anything but a regular file with {@link notRegularMessage}
 * (and gives a full file's size). `O_NONBLOCK` stays, so nothing blocks. What
 * is left is a device node (only root makes one) answering a positioned read
 * with a few bytes, swapped in during that window: read once without
 * blocking, and refused by the next listing.
 */
export function readFileStartSync(path: string, buffer: Buffer, options?: OpenRegularOptions): FileStart {
  const fd = openSync(path, flagsOf(options));
  try {
    let bytes = -1;
    let failure: unknown = null;
    try {
      bytes = readSync(fd, buffer, 0, buffer.length, 0);
    } catch (error) {
      failure = error;
    }
    if (bytes > 0 && bytes < buffer.length) return { bytes, size: bytes };
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new OdaError("unusable", notRegularMessage(path, stat));
    if (failure) throw failure;
    return { bytes, size: stat.size };
  } finally {
    closeSync(fd);
  }
}

/** The promise form of {@link openRegularSync}: a `FileHandle` the caller closes. */
export async function openRegular(
  path: string,
  options?: OpenRegularOptions,
): Promise<{ handle: fsp.FileHandle; stat: Stats }> {
  const handle = await fsp.open(path, flagsOf(options));
  let stat: Stats;
  try {
    stat = await handle.stat();
  } catch (error) {
    await handle.close();
    throw error;
  }
  if (!stat.isFile()) {
    await handle.close();
    throw new OdaError("unusable", notRegularMessage(path, stat));
  }
  return { handle, stat };
}
