import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openRegular, openRegularSync } from "./open-regular";

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
