import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { pack as tarPack } from "tar-stream";
import { describe, expect, it } from "vitest";
import { tempFolder } from "../../test-support/test-temp";
import { formatBinarySize } from "../bytes";
import { BUNDLE_FORMAT, type Manifest } from "./manifest";
import { readBundle } from "./read";
import { unpackBundle } from "./unpack";

const temp = () => tempFolder("oda-bundle-read-");

interface Entry {
  name: string;
  data?: string;
  type?: "file" | "symlink" | "link" | "character-device" | "directory";
  linkname?: string;
}

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

function manifestFor(files: { path: string; data: string }[], format = BUNDLE_FORMAT): Manifest {
  return {
    bundleFormat: format,
    odaAdminVersion: "test",
    createdAt: "2026-12-01T10:00:00.000Z",
    scope: { chats: "all", since: null, memory: true, redact: [], keywords: 0, dropText: false },
    counts: { files: files.length, bytes: 0, chats: 0, memories: 0, redactedFiles: 0, replaced: {}, problems: 0 },
    files: files.map((f) => ({ path: f.path, size: Buffer.byteLength(f.data), sha256: sha(f.data) })),
  };
}

/** Writes a .tar.gz of `entries`, the manifest (of `listed`) first unless `manifest` is false. */
async function archive(
  dir: string,
  entries: Entry[],
  listed: { path: string; data: string }[],
  o: { format?: number; manifest?: boolean } = {},
): Promise<string> {
  const pack = tarPack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => {
    chunks.push(c as Buffer);
  });
  const ended = new Promise<void>((done) => pack.on("end", () => done()));
  const all: Entry[] =
    o.manifest === false
      ? entries
      : [{ name: "manifest.json", data: JSON.stringify(manifestFor(listed, o.format)) }, ...entries];
  for (const e of all)
    pack.entry(
      { name: e.name, type: e.type ?? "file", linkname: e.linkname, size: e.type && e.type !== "file" ? 0 : undefined },
      e.data ?? "",
    );
  pack.finalize();
  await ended;
  const file = join(dir, "b.tar.gz");
  writeFileSync(file, gzipSync(Buffer.concat(chunks)));
  return file;
}

const good = [
  { path: "home/settings.json", data: "{}\n" },
  { path: "logs/_no-cwd/c-1/session.jsonl", data: '{"time":"2026-12-01T10:00:00Z","role":"user","text":"hi"}\n' },
];
const goodEntries = good.map((f) => ({ name: f.path, data: f.data }));

async function refusal(file: string, into: string | null = null): Promise<string> {
  try {
    await readBundle(file, into);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the bundle was accepted");
}

describe("reading a bundle", () => {
  it("accepts a good bundle and unpacks it below <state>/bundles", async () => {
    const dir = temp();
    const opened = await unpackBundle(await archive(dir, goodEntries, good), join(dir, "state"));
    expect(opened.dir.startsWith(join(dir, "state", "bundles"))).toBe(true);
    expect(readFileSync(join(opened.logs, "_no-cwd", "c-1", "session.jsonl"), "utf8")).toBe(good[1]?.data);
  });

  it("keeps the folder and its admin state when the same bundle is opened again, at once or later", async () => {
    const dir = temp();
    const file = await archive(dir, goodEntries, good);
    const state = join(dir, "state");
    const [first, second] = await Promise.all([unpackBundle(file, state), unpackBundle(file, state)]);
    expect(second.dir).toBe(first.dir);
    // A note made in the bundle's tab lives in its own admin state.
    writeFileSync(join(first.state, "made-in-the-bundle"), "a note\n");
    const again = await unpackBundle(file, state);
    expect(again.dir).toBe(first.dir);
    expect(readFileSync(join(again.state, "made-in-the-bundle"), "utf8")).toBe("a note\n");
    // Nothing partial is left beside it.
    expect(readdirSync(join(state, "bundles"))).toEqual([basename(first.dir)]);
  });

  it("replaces, whole, the folder of another bundle with the same name and time", async () => {
    const dir = temp();
    const state = join(dir, "state");
    const before = await unpackBundle(await archive(dir, goodEntries, good), state);
    writeFileSync(join(before.state, "of-the-old-bundle"), "x");
    const changed = [good[0], { path: good[1]?.path ?? "", data: (good[1]?.data ?? "").replace("hi", "hello") }];
    const after = await unpackBundle(
      await archive(
        dir,
        changed.map((f) => ({ name: f?.path ?? "", data: f?.data ?? "" })),
        changed as typeof good,
      ),
      state,
    );
    expect(after.dir).toBe(before.dir);
    expect(readFileSync(join(after.logs, "_no-cwd", "c-1", "session.jsonl"), "utf8")).toContain('"text":"hello"');
    expect(existsSync(join(after.state, "of-the-old-bundle"))).toBe(false);
    expect(readdirSync(join(state, "bundles"))).toEqual([basename(after.dir)]);
  });

  it.each([
    [
      "a changed file",
      [goodEntries[0], { name: good[1]?.path, data: (good[1]?.data ?? "").replace("hi", "ho") }],
      "The bundle's logs/_no-cwd/c-1/session.jsonl was changed: its SHA-256 does not match the manifest.",
    ],
    [
      "a missing file",
      [goodEntries[0]],
      "The bundle is missing logs/_no-cwd/c-1/session.jsonl, which its manifest lists.",
    ],
    [
      "a .. entry",
      [...goodEntries, { name: "../evil", data: "x" }],
      'The bundle\'s entry "../evil" has a .. segment; nothing of it is used.',
    ],
    [
      "an absolute path",
      [...goodEntries, { name: "/tmp/evil", data: "x" }],
      'The bundle\'s entry "/tmp/evil" has an absolute path; nothing of it is used.',
    ],
    [
      "a symlink",
      [{ name: "home/link", type: "symlink", linkname: "/etc/passwd" }, ...goodEntries],
      'The bundle\'s entry "home/link" is a symlink, not a file; nothing of it is used.',
    ],
    [
      "a hard link",
      [{ name: "home/hard", type: "link", linkname: "manifest.json" }, ...goodEntries],
      'The bundle\'s entry "home/hard" is a link, not a file; nothing of it is used.',
    ],
    [
      "a device",
      [{ name: "home/tty", type: "character-device" }, ...goodEntries],
      'The bundle\'s entry "home/tty" is a character-device, not a file; nothing of it is used.',
    ],
    ["a duplicate entry", [...goodEntries, goodEntries[0]], 'The bundle holds "home/settings.json" twice.'],
    [
      "an entry far larger than the manifest says",
      [goodEntries[0], { name: good[1]?.path, data: "x".repeat(1_000_000) }],
      "The bundle's logs/_no-cwd/c-1/session.jsonl is 1000000 bytes, but the manifest says 58.",
    ],
    [
      "an entry the manifest does not list",
      [...goodEntries, { name: "home/extra", data: "x" }],
      "The bundle holds home/extra, which its manifest does not list.",
    ],
  ] as [string, Entry[], string][])("refuses %s with a sentence naming it", async (_what, entries, sentence) => {
    const dir = temp();
    expect(await refusal(await archive(dir, entries, good))).toBe(sentence);
  });

  it("refuses an unknown format version and an archive with no manifest first", async () => {
    const dir = temp();
    expect(await refusal(await archive(dir, goodEntries, good, { format: 99 }))).toBe(
      "The bundle has format version 99; this Oda Admin opens format 1 only.",
    );
    expect(await refusal(await archive(dir, goodEntries, good, { manifest: false }))).toBe(
      "The bundle does not begin with manifest.json; this is not a support bundle.",
    );
  });

  it("refuses a FIFO named like a bundle without blocking", async () => {
    const dir = temp();
    const fifo = join(dir, "b.tar.gz");
    execFileSync("mkfifo", [fifo]);
    expect(await refusal(fifo)).toBe(`${fifo} is a FIFO (named pipe), not a regular file; it is not read.`);
  });

  it("refuses a truncated archive", async () => {
    const dir = temp();
    const file = await archive(
      dir,
      [goodEntries[0] as Entry, { name: "logs/big", data: "y".repeat(200_000) }],
      [good[0] as { path: string; data: string }, { path: "logs/big", data: "y".repeat(200_000) }],
    );
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(await refusal(file)).toBe("The bundle is cut short: the archive ends before its last entry.");
  });

  it("writes nothing outside its unpack folder and leaves nothing behind when refused", async () => {
    const dir = temp();
    const state = join(dir, "state");
    const file = await archive(dir, [...goodEntries, { name: "../evil", data: "x" }], good);
    await expect(unpackBundle(file, state)).rejects.toThrow(/\.\. segment/);
    expect(existsSync(join(dir, "evil"))).toBe(false);
    expect(existsSync(join(state, "evil"))).toBe(false);
    expect(readdirSync(join(state, "bundles"))).toEqual([]);
  });

  it("refuses, before writing, a bundle that unpacks to far more than its size, unless a larger ratio is allowed", async () => {
    // Issue 24: an honest manifest listing a large file of zeros; the archive is a thousandth of it.
    const dir = temp();
    const state = join(dir, "state");
    const zeros = "\0".repeat(32 * 1024 * 1024);
    const listed = [...good, { path: "logs/_no-cwd/c-1/zeros", data: zeros }];
    const file = await archive(
      dir,
      listed.map((f) => ({ name: f.path, data: f.data })),
      listed,
    );
    const archiveBytes = statSync(file).size;
    const total = listed.reduce((n, f) => n + Buffer.byteLength(f.data), 0);
    const message = await unpackBundle(file, state).then(
      () => "accepted",
      (error: Error) => error.message,
    );
    expect(message).toBe(
      `The bundle would unpack to ${total} bytes (32.0 MiB), ${Math.floor(total / archiveBytes)} times its own ${archiveBytes} bytes (${formatBinarySize(archiveBytes, "bytes")}); a bundle may unpack to at most 100 times its size (--max-ratio allows more). Nothing was written.`,
    );
    expect(readdirSync(join(state, "bundles"))).toEqual([]);
    expect(await readBundle(file)).toMatchObject({ files: expect.any(Array) }); // verify alone still passes
    const opened = await unpackBundle(file, state, { maxRatio: 100_000 });
    expect(statSync(join(opened.logs, "_no-cwd/c-1/zeros")).size).toBe(zeros.length);
  });

  it("refuses, before writing, a bundle that would not fit the state folder's free space", async () => {
    const dir = temp();
    const state = join(dir, "state");
    mkdirSync(state);
    const fs = statfsSync(state);
    const free = Number(fs.bavail) * Number(fs.bsize);
    const m = manifestFor(good);
    m.files.push({ path: "logs/_no-cwd/c-1/huge", size: free * 2, sha256: sha("") });
    const pack = tarPack();
    const chunks: Buffer[] = [];
    pack.on("data", (c: unknown) => {
      chunks.push(c as Buffer);
    });
    const ended = new Promise<void>((done) => pack.on("end", () => done()));
    pack.entry({ name: "manifest.json" }, JSON.stringify(m));
    pack.finalize();
    await ended;
    const file = join(dir, "b.tar.gz");
    writeFileSync(file, gzipSync(Buffer.concat(chunks)));
    const message = await unpackBundle(file, state, { maxRatio: 1e15 }).then(
      () => "accepted",
      (error: Error) => error.message,
    );
    expect(message).toMatch(
      new RegExp(
        `^The bundle would unpack to ${free * 2 + 3 + Buffer.byteLength(good[1]?.data ?? "")} bytes \\(.+\\), more than the \\d+ bytes \\(.+\\) free in ${state}\\. Nothing was written\\.$`,
      ),
    );
    expect(readdirSync(join(state, "bundles"))).toEqual([]);
  });

  it("`bundle verify` passes such a bundle but warns that opening it would be refused", async () => {
    const dir = temp();
    const zeros = "\0".repeat(8 * 1024 * 1024);
    const listed = [...good, { path: "logs/_no-cwd/c-1/zeros", data: zeros }];
    const file = await archive(
      dir,
      listed.map((f) => ({ name: f.path, data: f.data })),
      listed,
    );
    const bin = fileURLToPath(new URL("../../bin/oda-admin", import.meta.url));
    const run = (extra: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, [bin, "bundle", "verify", file, "--json", ...extra], { encoding: "utf8" }),
      );
    const warned = run([]);
    expect(warned.ok).toBe(true);
    expect(warned.warnings).toHaveLength(1);
    expect(warned.warnings[0]).toMatch(
      /^Opening it would be refused: The bundle would unpack to \d+ bytes \(8\.0 MiB\), \d+ times its own \d+ bytes .*a bundle may unpack to at most 100 times its size \(--max-ratio allows more\)\.$/,
    );
    expect(run(["--max-ratio", "100000"]).warnings).toEqual([]);
  }, 60_000);
});
