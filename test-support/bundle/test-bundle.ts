/** Test helper: a small bundle file built by hand (a tar.gz, the manifest first). Not part of the public API. */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { pack as tarPack } from "tar-stream";
import { BUNDLE_FORMAT, type Manifest } from "../../lib/bundle/manifest";

/** The files of a test bundle: a settings file and a doctor report. */
export const TEST_BUNDLE_FILES = [
  { path: "home/settings.json", data: "{}\n" },
  { path: "doctor.json", data: '{"ok":true,"sections":[]}\n' },
];

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/** The manifest of a test bundle created at `createdAt` with `files`. */
export function testManifest(createdAt: string, files = TEST_BUNDLE_FILES): Manifest {
  return {
    bundleFormat: BUNDLE_FORMAT,
    odaAdminVersion: "test",
    createdAt,
    scope: { chats: "all", since: null, memory: true, redact: [], keywords: 0, dropText: false },
    counts: { files: files.length, bytes: 0, chats: 0, memories: 0, redactedFiles: 0, replaced: {}, problems: 0 },
    files: files.map((f) => ({ path: f.path, size: Buffer.byteLength(f.data), sha256: sha(f.data) })),
  };
}

/** Writes the bundle file `dir/name`: the manifest first, then the files. */
export async function writeTestBundle(
  dir: string,
  name: string,
  createdAt = "2026-12-01T10:00:00.000Z",
  files = TEST_BUNDLE_FILES,
): Promise<string> {
  const pack = tarPack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => {
    chunks.push(c as Buffer);
  });
  const ended = new Promise<void>((done) => pack.on("end", () => done()));
  pack.entry({ name: "manifest.json" }, JSON.stringify(testManifest(createdAt, files)));
  for (const f of files) pack.entry({ name: f.path }, f.data);
  pack.finalize();
  await ended;
  const file = join(dir, name);
  writeFileSync(file, gzipSync(Buffer.concat(chunks)));
  return file;
}
