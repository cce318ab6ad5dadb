import { closeSync, constants, promises as fsp, fstatSync, openSync, type Stats } from "node:fs";
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
