import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { pack as tarPack } from "tar-stream";
import { OdaError } from "../errors";
import type { StagedFile } from "./stage";

/**
 * Writes staged files as one gzip-compressed tar stream (`tar -tzf FILE`
 * lists it), entry by entry: a file's bytes flow from disk to the archive
 * through bounded buffers, so a 1 GB log is never held in memory.
 */

type Sink = ReturnType<ReturnType<typeof tarPack>["entry"]>;

async function writeChunk(sink: Sink, chunk: Buffer): Promise<void> {
  if (!sink.write(chunk)) await once(sink as unknown as NodeJS.EventEmitter, "drain");
}

/** Adds one entry and resolves once tar-stream has taken all of it. */
async function addEntry(
  pack: ReturnType<typeof tarPack>,
  file: StagedFile,
  mtime: Date,
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
    let seen = 0;
    const start = file.from.start ?? 0;
    for await (const chunk of createReadStream(file.from.file, {
      start,
      end: start + file.size - 1,
      highWaterMark: 1 << 20,
    })) {
      seen += (chunk as Buffer).length;
      await writeChunk(sink, chunk as Buffer);
      onBytes?.((chunk as Buffer).length);
    }
    if (seen !== file.size) throw new OdaError("io", `${file.path} became shorter while the bundle was written.`);
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
  const piped = pipeline(pack, createGzip({ level: 6 }), out);
  const mtime = new Date();
  try {
    for (const entry of entries) await addEntry(pack, entry, mtime, onBytes);
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    await piped.catch(() => undefined);
    throw error;
  }
  await piped;
}
