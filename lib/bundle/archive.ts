import { once } from "node:events";
import { closeSync, createWriteStream, openSync, readSync } from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { pack as tarPack } from "tar-stream";
import { OdaError } from "../errors";
import type { StagedFile } from "./stage";

/**
 * Writes staged files as one gzip-compressed tar stream (`tar -tzf FILE`
 * lists it), entry by entry: a file's bytes flow from disk to the archive
 * through bounded buffers, so a 1 GB log is never held in memory. Bytes are
 * read with positioned reads from descriptors opened once per file, and the
 * tar stream reaches gzip in pieces of 256 KiB: the archive's bytes are what
 * a stream per entry wrote, at a fraction of the calls for many small files.
 */

type Sink = ReturnType<ReturnType<typeof tarPack>["entry"]>;

async function writeChunk(sink: Sink, chunk: Buffer): Promise<void> {
  if (!sink.write(chunk)) await once(sink as unknown as NodeJS.EventEmitter, "drain");
}

/** Bytes read from a file at a time. */
const CHUNK = 1 << 20;
/** Pieces of the spool kept for its small ranges, and their size. */
const WINDOWS = 4;
const WINDOW = 1 << 20;
/** The tar stream is handed to gzip in pieces of at least this size (20,000 small entries are 60,000 pieces). */
const GZIP_PIECE = 256 * 1024;

/**
 * The files entries are read from, each opened once: the spool holds most entries (every small file and
 * rewritten log), and a stream opened and closed per entry cost 20,000 opens for 10,000 chats. Any other file
 * (a log's link) is closed when its entry is done.
 */
class OpenFiles {
  private readonly fds = new Map<string, number>();
  private windows: { start: number; data: Buffer }[] = [];
  constructor(private readonly keep: string | null) {}

  open(path: string): number {
    let fd = this.fds.get(path);
    if (fd === undefined) {
      fd = openSync(path, "r");
      this.fds.set(path, fd);
    }
    return fd;
  }

  /**
   * A small range of the spool from one of the last few 1 MiB pieces read of it (a chat's log and its
   * checkpoint lie in two places of the spool, each chat's after the one before), or null: read it directly.
   */
  window(path: string, start: number, size: number): Buffer | null {
    if (path !== this.keep || size > WINDOW / 16) return null;
    let w = this.windows.find((x) => start >= x.start && start + size <= x.start + x.data.length);
    if (!w) {
      const data = Buffer.allocUnsafe(WINDOW);
      const n = readSync(this.open(path), data, 0, WINDOW, start);
      if (n < size) return null;
      w = { start, data: data.subarray(0, n) };
      this.windows.unshift(w);
      this.windows.length = Math.min(this.windows.length, WINDOWS);
    }
    // Never written to again once read: a piece of it can be handed on as it is.
    return w.data.subarray(start - w.start, start - w.start + size);
  }

  done(path: string): void {
    if (path === this.keep) return;
    const fd = this.fds.get(path);
    this.fds.delete(path);
    if (fd !== undefined) closeSync(fd);
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }
}

/** Joins small pieces into larger ones (gzip's output does not depend on how its input is cut). */
function joinPieces(): Transform {
  let held: Buffer[] = [];
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, next) {
      held.push(chunk);
      bytes += chunk.length;
      if (bytes >= GZIP_PIECE) {
        this.push(held.length === 1 ? chunk : Buffer.concat(held, bytes));
        held = [];
        bytes = 0;
      }
      next();
    },
    flush(next) {
      if (bytes > 0) this.push(Buffer.concat(held, bytes));
      next();
    },
  });
}

/** Adds one entry and resolves once tar-stream has taken all of it. */
async function addEntry(
  pack: ReturnType<typeof tarPack>,
  file: StagedFile,
  mtime: Date,
  files: OpenFiles,
  onBytes?: (n: number) => void,
): Promise<void> {
  let done!: () => void;
  let fail!: (e: Error) => void;
  const added = new Promise<void>((resolve, reject) => {
    done = resolve;
    fail = reject;
  });
  const sink = pack.entry({ name: file.path, size: file.size, mode: 0o644, mtime, type: "file" }, (err) =>
    err ? fail(err) : done(),
  );
  if ("data" in file.from) {
    await writeChunk(sink, file.from.data);
  } else if (file.size > 0) {
    const start = file.from.start ?? 0;
    const near = files.window(file.from.file, start, file.size);
    if (near) {
      await writeChunk(sink, near);
      onBytes?.(near.length);
    } else {
      const fd = files.open(file.from.file);
      try {
        for (let seen = 0; seen < file.size; ) {
          const chunk = Buffer.allocUnsafe(Math.min(CHUNK, file.size - seen));
          const n = readSync(fd, chunk, 0, chunk.length, start + seen);
          if (n === 0) throw new OdaError("io", `${file.path} became shorter while the bundle was written.`);
          seen += n;
          await writeChunk(sink, n === chunk.length ? chunk : chunk.subarray(0, n));
          onBytes?.(n);
        }
      } finally {
        files.done(file.from.file);
      }
    }
  }
  sink.end(undefined);
  await added;
}

/** Writes `entries` (the manifest first) to `target` as `.tar.gz`. */
export async function writeArchive(
  target: string,
  entries: StagedFile[],
  onBytes?: (n: number) => void,
): Promise<void> {
  const pack = tarPack();
  const out = createWriteStream(target, { flags: "wx", mode: 0o600 });
  const piped = pipeline(pack, joinPieces(), createGzip({ level: 6 }), out);
  const mtime = new Date();
  // The spool is the file most entries come from (`lib/bundle/spool.ts`): kept open throughout.
  const spool = entries.find((e) => "file" in e.from && e.from.start !== undefined)?.from;
  const files = new OpenFiles(spool && "file" in spool ? spool.file : null);
  try {
    for (const entry of entries) await addEntry(pack, entry, mtime, files, onBytes);
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    await piped.catch(() => undefined);
    throw error;
  } finally {
    files.close();
  }
  await piped;
}
