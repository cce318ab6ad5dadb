import { execFileSync } from "node:child_process";
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeFileKind, notRegularMessage, openRegular, openRegularSync, readFileStartSync } from "./open-regular";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "oda-open-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("openRegular", () => {
  it("opens a regular file", async () => {
    const path = join(dir, "a");
    writeFileSync(path, "hello");
    const { fd, stat } = openRegularSync(path);
    expect(stat.size).toBe(5);
    closeSync(fd);
    const opened = await openRegular(path);
    expect(opened.stat.size).toBe(5);
    await opened.handle.close();
  });

  it("refuses a FIFO at once instead of blocking, with a sentence", async () => {
    const path = join(dir, "session.jsonl");
    execFileSync("mkfifo", [path]);
    expect(() => openRegularSync(path)).toThrow(`${path} is a FIFO (named pipe), not a regular file; it is not read.`);
    await expect(openRegular(path)).rejects.toThrow("is a FIFO (named pipe), not a regular file");
  });

  it("refuses a folder and a character device", () => {
    expect(() => openRegularSync(dir)).toThrow("is a folder, not a regular file");
    expect(() => openRegularSync("/dev/zero")).toThrow(
      "/dev/zero is a character device, not a regular file; it is not read.",
    );
  });
});

describe("readFileStartSync (a file the folder listing showed as regular)", () => {
  const buffer = Buffer.alloc(16);

  it("gives a short file's bytes and size from the read, and a longer file's size from its fstat", () => {
    const short = join(dir, "short");
    writeFileSync(short, "hello");
    expect(readFileStartSync(short, buffer)).toEqual({ bytes: 5, size: 5 });
    expect(buffer.toString("utf8", 0, 5)).toBe("hello");
    const long = join(dir, "long");
    writeFileSync(long, "x".repeat(40));
    expect(readFileStartSync(long, buffer)).toEqual({ bytes: 16, size: 40 });
    const empty = join(dir, "empty");
    writeFileSync(empty, "");
    expect(readFileStartSync(empty, buffer)).toEqual({ bytes: 0, size: 0 });
  });

  it("refuses a FIFO swapped in after the listing, even one holding bytes, without taking a byte or blocking", () => {
    const path = join(dir, "session.v4.jsonl.zstd");
    writeFileSync(path, "listed as a regular file");
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    renameSync(fifo, path);
    const sentence = `${path} is a FIFO (named pipe), not a regular file; it is not read.`;
    expect(() => readFileStartSync(path, buffer)).toThrow(sentence);
    // A writer (r+ opens a FIFO at once on Linux) leaves a few bytes in it: a plain read would return them short.
    const writer = openSync(path, "r+");
    try {
      writeSync(writer, "abc");
      expect(() => readFileStartSync(path, buffer)).toThrow(sentence);
      const back = Buffer.alloc(8);
      expect(back.toString("utf8", 0, readSync(writer, back, 0, 8, null))).toBe("abc");
    } finally {
      closeSync(writer);
    }
  });

  it("refuses a device that fills the read or gives nothing, and a folder", () => {
    expect(() => readFileStartSync("/dev/zero", buffer)).toThrow(
      "/dev/zero is a character device, not a regular file; it is not read.",
    );
    expect(() => readFileStartSync("/dev/null", buffer)).toThrow(
      "/dev/null is a character device, not a regular file; it is not read.",
    );
    expect(() => readFileStartSync(dir, buffer)).toThrow(`${dir} is a folder, not a regular file; it is not read.`);
  });
});

// Written from the survivors of `npm run mutate` (docs/mutation.md): each fails with the mutant it names.
describe("open-regular, the edges", () => {
  /** This process's open descriptors. */
  const openFds = () => readdirSync("/proc/self/fd").length;

  it("follows a symbolic link unless noFollow is given, then refuses it (ELOOP)", async () => {
    const target = join(dir, "target");
    writeFileSync(target, "hello");
    const link = join(dir, "link");
    symlinkSync(target, link);
    const { fd } = openRegularSync(link);
    closeSync(fd);
    await (await openRegular(link)).handle.close();
    expect(readFileStartSync(link, Buffer.alloc(16))).toEqual({ bytes: 5, size: 5 });
    expect(() => openRegularSync(link, { noFollow: true })).toThrow(expect.objectContaining({ code: "ELOOP" }));
    await expect(openRegular(link, { noFollow: true })).rejects.toMatchObject({ code: "ELOOP" });
    expect(() => readFileStartSync(link, Buffer.alloc(16), { noFollow: true })).toThrow(
      expect.objectContaining({ code: "ELOOP" }),
    );
    // noFollow is about the last segment only: a link earlier in the path is followed.
    symlinkSync(dir, join(dir, "again"));
    const through = openRegularSync(join(dir, "again", "target"), { noFollow: true });
    closeSync(through.fd);
  });

  it("refuses with the code unusable and closes the descriptor it opened", async () => {
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    const before = openFds();
    for (const path of [fifo, dir, "/dev/null"]) {
      expect(() => openRegularSync(path)).toThrow(expect.objectContaining({ code: "unusable" }));
      await expect(openRegular(path)).rejects.toMatchObject({ code: "unusable" });
      expect(() => readFileStartSync(path, Buffer.alloc(16))).toThrow(expect.objectContaining({ code: "unusable" }));
    }
    const file = join(dir, "file");
    writeFileSync(file, "x".repeat(40));
    readFileStartSync(file, Buffer.alloc(16));
    readFileStartSync(file, Buffer.alloc(64));
    expect(openFds()).toBe(before);
  });

  it("names every kind of file in words", () => {
    const kinds = [
      "isFile",
      "isDirectory",
      "isFIFO",
      "isSocket",
      "isCharacterDevice",
      "isBlockDevice",
      "isSymbolicLink",
    ];
    const statOf = (kind: string | null) =>
      Object.fromEntries(kinds.map((k) => [k, () => k === kind])) as unknown as Parameters<typeof describeFileKind>[0];
    expect([...kinds, null].map((k) => describeFileKind(statOf(k)))).toEqual([
      "a regular file",
      "a folder",
      "a FIFO (named pipe)",
      "a socket",
      "a character device",
      "a block device",
      "a symbolic link",
      "not a regular file",
    ]);
    expect(notRegularMessage("/x/y", statOf("isSocket"))).toBe("/x/y is a socket, not a regular file; it is not read.");
  });
});
