import { promises as fsp } from "node:fs";
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type AtomicFs, isTempFileName, removeLeftoverTemps, writeFileAtomic } from "./atomic";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "oda-atomic-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("writeFileAtomic", () => {
  it("replaces the file with the exact bytes and leaves no temp file", async () => {
    const path = join(dir, "0000000a");
    await writeFile(path, "old");
    await writeFileAtomic(path, "new ✓");
    expect(await readFile(path, "utf8")).toBe("new ✓");
    expect(await readdir(dir)).toEqual(["0000000a"]);
  });

  it("fsyncs the temp file and the folder", async () => {
    const syncs: string[] = [];
    const fs: AtomicFs = {
      ...fsp,
      open: (async (p: string, flags: number, mode?: number) => {
        const h = await fsp.open(p, flags, mode);
        const sync = h.sync.bind(h);
        h.sync = async () => {
          syncs.push(p === dir ? "folder" : "file");
          return sync();
        };
        return h;
      }) as AtomicFs["open"],
    };
    await writeFileAtomic(join(dir, "x"), "data", { fs });
    expect(syncs).toEqual(["file", "folder"]);
  });

  it("keeps the old bytes and removes its temp file when the rename fails", async () => {
    const path = join(dir, "0000000a");
    await writeFile(path, "old");
    const fs: AtomicFs = {
      ...fsp,
      rename: vi.fn(async () => Promise.reject(Object.assign(new Error("boom"), { code: "EIO" }))),
    };
    await expect(writeFileAtomic(path, "new", { fs })).rejects.toThrow("boom");
    expect(await readFile(path, "utf8")).toBe("old");
    expect(await readdir(dir)).toEqual(["0000000a"]);
  });

  it("keeps the old bytes when the write itself fails (disk full)", async () => {
    const path = join(dir, "0000000a");
    await writeFile(path, "old");
    const fs: AtomicFs = {
      ...fsp,
      open: (async (p: string, flags: number, mode?: number) => {
        const h = await fsp.open(p, flags, mode);
        h.writeFile = async () => Promise.reject(Object.assign(new Error("no space"), { code: "ENOSPC" }));
        return h;
      }) as AtomicFs["open"],
    };
    await expect(writeFileAtomic(path, "new", { fs })).rejects.toThrow("no space");
    expect(await readFile(path, "utf8")).toBe("old");
    expect(await readdir(dir)).toEqual(["0000000a"]);
  });
});

describe("leftover temp files", () => {
  it("recognises temp names and removes only old ones", async () => {
    expect(isTempFileName(".0000000a.tmp-0123456789ab")).toBe(true);
    expect(isTempFileName("0000000a")).toBe(false);
    const old = join(dir, ".a.tmp-0123456789ab");
    await writeFile(old, "x");
    await utimes(old, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    await writeFile(join(dir, ".b.tmp-0123456789ab"), "young");
    expect(await removeLeftoverTemps(dir)).toEqual([".a.tmp-0123456789ab"]);
    expect(await readdir(dir)).toEqual([".b.tmp-0123456789ab"]);
  });
});
