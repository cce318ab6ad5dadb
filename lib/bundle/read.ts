import { createHash } from "node:crypto";
import { closeSync, createReadStream, mkdirSync, openSync, statfsSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { extract as tarExtract } from "tar-stream";
import { formatBinarySize } from "../bytes";
import { OdaError } from "../errors";
import { openRegularSync } from "../fs/open-regular";
import { BUNDLE_FORMAT, badEntryPath, MANIFEST_MAX_BYTES, type Manifest, ZManifest } from "./manifest";

/**
 * Reads a bundle as a stream and checks it as it goes: the manifest first,
 * then every entry against it (name, kind, size, SHA-256), nothing twice and
 * nothing missing. With `into`, each checked byte is written below that
 * folder and nowhere else; without it, nothing is written (verify).
 */

const refuse = (sentence: string) => new OdaError("unusable", sentence);

/**
 * How many times its own size a bundle may unpack to (issue 24: a 2.3 MB archive whose manifest honestly
 * listed a 2 GiB file of zeros wrote 2.1 GB into the state folder). Real bundles hold zstd logs, already
 * compressed, and text: a few times their size, tens at most for plain logs. `--max-ratio` allows more.
 */
export const DEFAULT_MAX_RATIO = 100;

/** Limits on what a bundle may unpack to. */
export interface ExpansionLimits {
  /** Unpacked bytes allowed per byte of the archive (default {@link DEFAULT_MAX_RATIO}). */
  maxRatio?: number;
  /** The folder it would be written into: its free space must hold everything the manifest lists. */
  freeIn?: string;
}

/**
 * Why a bundle would unpack to too much, or null: the manifest's total against the archive's size times
 * the ratio, and against the free space of `freeIn`. A manifest's sizes bound what is written (an entry
 * larger than the manifest says is refused), so this is known before anything is written.
 */
export function expansionProblem(
  manifest: Manifest,
  archiveBytes: number,
  limits: ExpansionLimits = {},
): string | null {
  const total = manifest.files.reduce((n, f) => n + f.size, 0);
  const ratio = limits.maxRatio ?? DEFAULT_MAX_RATIO;
  if (total > ratio * Math.max(archiveBytes, 1))
    return `The bundle would unpack to ${total} bytes (${formatBinarySize(total, "bytes")}), ${Math.floor(total / Math.max(archiveBytes, 1))} times its own ${archiveBytes} bytes (${formatBinarySize(archiveBytes, "bytes")}); a bundle may unpack to at most ${ratio} times its size (--max-ratio allows more). Nothing was written.`;
  if (limits.freeIn) {
    const fs = statfsSync(limits.freeIn);
    const free = Number(fs.bavail) * Number(fs.bsize);
    if (total > free)
      return `The bundle would unpack to ${total} bytes (${formatBinarySize(total, "bytes")}), more than the ${free} bytes (${formatBinarySize(free, "bytes")}) free in ${limits.freeIn}. Nothing was written.`;
  }
  return null;
}

async function readAll(stream: AsyncIterable<unknown>, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit)
      throw refuse("The bundle's manifest.json is larger than any manifest; this is not a support bundle.");
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}

function parseManifest(data: Buffer): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(data.toString("utf8"));
  } catch {
    throw refuse("The bundle's manifest.json is not JSON; this is not a support bundle.");
  }
  const format = (value as { bundleFormat?: unknown } | null)?.bundleFormat;
  if (typeof format === "number" && format !== BUNDLE_FORMAT)
    throw refuse(`The bundle has format version ${format}; this Oda Admin opens format ${BUNDLE_FORMAT} only.`);
  const parsed = ZManifest.safeParse(value);
  if (!parsed.success) throw refuse("The bundle's manifest.json does not describe a support bundle.");
  for (const f of parsed.data.files) {
    const bad = badEntryPath(f.path);
    if (bad) throw refuse(`The bundle's manifest names ${JSON.stringify(f.path)}, which has ${bad}.`);
  }
  return parsed.data;
}

/** Streams one entry's bytes, hashing them and writing them below `into` when given. */
async function takeEntry(
  stream: AsyncIterable<unknown>,
  path: string,
  into: string | null,
): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256");
  let fd: number | null = null;
  if (into) {
    const target = join(into, ...path.split("/"));
    mkdirSync(dirname(target), { recursive: true });
    fd = openSync(target, "wx", 0o644);
  }
  let size = 0;
  try {
    for await (const chunk of stream) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (fd !== null) writeSync(fd, chunk as Buffer);
    }
  } finally {
    if (fd !== null) closeSync(fd);
  }
  return { size, sha256: hash.digest("hex") };
}

/** Checks a bundle (and unpacks it into `into`, a new empty folder, when given); returns its manifest. */
export async function readBundle(
  file: string,
  into: string | null = null,
  limits: ExpansionLimits = {},
): Promise<Manifest> {
  const extract = tarExtract();
  let archiveBytes = 0;
  let manifest: Manifest | null = null;
  const expected = new Map<string, { size: number; sha256: string }>();
  const seen = new Set<string>();
  extract.on("entry", (header, stream, next) => {
    // A refused entry is destroyed with the archive; its error is the one `pipeline` reports.
    stream.on("error", () => undefined);
    (async () => {
      const name = header.name;
      if (seen.has(name)) throw refuse(`The bundle holds ${JSON.stringify(name)} twice.`);
      seen.add(name);
      const bad = badEntryPath(name);
      if (bad) throw refuse(`The bundle's entry ${JSON.stringify(name)} has ${bad}; nothing of it is used.`);
      if (header.type !== "file")
        throw refuse(
          `The bundle's entry ${JSON.stringify(name)} is a ${header.type}, not a file; nothing of it is used.`,
        );
      if (!manifest) {
        if (name !== "manifest.json")
          throw refuse("The bundle does not begin with manifest.json; this is not a support bundle.");
        const data = await readAll(stream, MANIFEST_MAX_BYTES);
        manifest = parseManifest(data);
        for (const f of manifest.files) expected.set(f.path, f);
        if (into) {
          // Before the first byte is written: what the manifest lists must fit the ratio and the free space.
          const tooMuch = expansionProblem(manifest, archiveBytes, limits);
          if (tooMuch) throw refuse(tooMuch);
          await takeEntry(asStream(data), name, into);
        }
        return;
      }
      const want = expected.get(name);
      if (!want) throw refuse(`The bundle holds ${name}, which its manifest does not list.`);
      if (header.size !== want.size)
        throw refuse(`The bundle's ${name} is ${header.size} bytes, but the manifest says ${want.size}.`);
      const got = await takeEntry(stream, name, into);
      if (got.size !== want.size) throw refuse(`The bundle is cut short: ${name} ends early.`);
      if (got.sha256 !== want.sha256)
        throw refuse(`The bundle's ${name} was changed: its SHA-256 does not match the manifest.`);
    })().then(
      () => next(),
      (error: Error) => next(error),
    );
  });
  let fd: number;
  try {
    // A FIFO or device named like a bundle would block or never end: only a regular file is read.
    const opened = openRegularSync(file);
    fd = opened.fd;
    archiveBytes = opened.stat.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new OdaError("not_found", `No file ${file} exists.`);
    throw error;
  }
  try {
    await pipeline(createReadStream("", { fd }), createGunzip(), extract);
  } catch (error) {
    if (error instanceof OdaError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new OdaError("not_found", `No file ${file} exists.`);
    if (code === "Z_BUF_ERROR" || /unexpected end/i.test((error as Error).message))
      throw refuse("The bundle is cut short: the archive ends before its last entry.");
    throw refuse(`The bundle cannot be read as a .tar.gz archive: ${(error as Error).message}.`);
  }
  if (!manifest) throw refuse("The bundle holds no manifest.json; this is not a support bundle.");
  for (const f of (manifest as Manifest).files)
    if (!seen.has(f.path)) throw refuse(`The bundle is missing ${f.path}, which its manifest lists.`);
  return manifest;
}

/**
 * The manifest of a bundle and its exact bytes, reading no further than its first entry (nothing
 * else is checked): enough to tell whether an unpacked copy is this bundle (`openBundle`).
 */
export async function peekManifest(file: string): Promise<{ manifest: Manifest; bytes: Buffer }> {
  const extract = tarExtract();
  let found: { manifest: Manifest; bytes: Buffer } | null = null;
  const done = new Error("manifest read");
  extract.on("entry", (header, stream, next) => {
    stream.on("error", () => undefined);
    (async () => {
      if (header.name !== "manifest.json" || header.type !== "file")
        throw refuse("The bundle does not begin with manifest.json; this is not a support bundle.");
      const bytes = await readAll(stream, MANIFEST_MAX_BYTES);
      found = { manifest: parseManifest(bytes), bytes };
      // Stops the archive here: the rest is not needed.
      throw done;
    })().then(
      () => next(),
      (error: Error) => next(error),
    );
  });
  let fd: number;
  try {
    fd = openRegularSync(file).fd;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new OdaError("not_found", `No file ${file} exists.`);
    throw error;
  }
  try {
    await pipeline(createReadStream("", { fd }), createGunzip(), extract);
  } catch (error) {
    if (error === done && found) return found;
    if (error instanceof OdaError) throw error;
    if ((error as NodeJS.ErrnoException).code === "Z_BUF_ERROR" || /unexpected end/i.test((error as Error).message))
      throw refuse("The bundle is cut short: the archive ends before its last entry.");
    throw refuse(`The bundle cannot be read as a .tar.gz archive: ${(error as Error).message}.`);
  }
  throw refuse("The bundle holds no manifest.json; this is not a support bundle.");
}

async function* bytesOf(data: Buffer): AsyncGenerator<Buffer> {
  yield data;
}

function asStream(data: Buffer): AsyncIterable<Buffer> {
  return bytesOf(data);
}
