import { promises as fsp, readdirSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type AtomicFs,
  fsyncFolder,
  isTempFileName,
  makeTempPath,
  removeLeftoverTemps,
  settleStaged,
  stageFile,
  type TargetedError,
  writeFileAtomic,
} from "./atomic";

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

describe("atomic, the edges", () => {
  const failing = (code: string) => Object.assign(new Error(`failed: ${code}`), { code });

  it("names its temporary file beside the target: a dot, the name, .tmp- and 12 hex digits", () => {
    const temp = makeTempPath(join(dir, "0000000a"));
    expect(temp.startsWith(join(dir, ".0000000a.tmp-"))).toBe(true);
    expect(temp.slice(join(dir, ".0000000a.tmp-").length)).toMatch(/^[0-9a-f]{12}$/);
    expect(isTempFileName(basename(temp))).toBe(true);
    for (const name of [
      "a.tmp-0123456789ab",
      ".a.tmp-0123456789a",
      ".a.tmp-0123456789abc",
      ".a.tmp-0123456789AB",
      "..tmp-0123456789ab",
      "x.a.tmp-0123456789ab",
    ])
      expect(isTempFileName(name), name).toBe(false);
  });

  it("writes the file 644 unless told otherwise", async () => {
    await writeFileAtomic(join(dir, "a"), "x");
    await writeFileAtomic(join(dir, "b"), "x", { mode: 0o600 });
    expect((await stat(join(dir, "a"))).mode & 0o777).toBe(0o644);
    expect((await stat(join(dir, "b"))).mode & 0o777).toBe(0o600);
  });

  it("tags a failure with the file it was writing, keeping a target already set", async () => {
    const path = join(dir, "0000000a");
    const rename = (error: Error) => ({ ...fsp, rename: async () => Promise.reject(error) }) as AtomicFs;
    const e1 = failing("EIO");
    await expect(writeFileAtomic(path, "new", { fs: rename(e1) })).rejects.toBe(e1);
    expect((e1 as TargetedError).target).toBe(path);
    const e2 = Object.assign(failing("EIO"), { target: "/elsewhere" });
    await expect(writeFileAtomic(path, "new", { fs: rename(e2) })).rejects.toBe(e2);
    expect(e2.target).toBe("/elsewhere");
    const e3 = failing("ENOSPC");
    const open = (async () => Promise.reject(e3)) as unknown as AtomicFs["open"];
    await expect(stageFile(path, "new", { fs: { ...fsp, open } })).rejects.toBe(e3);
    expect((e3 as TargetedError).target).toBe(path);
  });

  it("passes on a failure that is not an object as it is", async () => {
    const path = join(dir, "0000000a");
    for (const thrown of ["boom", null])
      await expect(
        writeFileAtomic(path, "new", { fs: { ...fsp, rename: async () => Promise.reject(thrown) } as AtomicFs }),
      ).rejects.toBe(thrown);
  });

  it("closes the temporary file it wrote", async () => {
    const open = () => readdirSync("/proc/self/fd").length;
    const before = open();
    for (let i = 0; i < 20; i++) await (await stageFile(join(dir, `f${i}`), "x")).discard();
    expect(open()).toBe(before);
  });

  it("fsyncFolder ignores the answers of folders that cannot be synced, throws any other, and closes", async () => {
    for (const [code, thrown] of [
      ["EINVAL", false],
      ["EISDIR", false],
      ["EPERM", false],
      ["EIO", true],
    ] as const) {
      let closed = 0;
      const open = (async (p: string, flags: number) => {
        const h = await fsp.open(p, flags);
        h.sync = async () => Promise.reject(failing(code));
        const close = h.close.bind(h);
        h.close = async () => {
          closed++;
          return close();
        };
        return h;
      }) as AtomicFs["open"];
      const run = fsyncFolder(dir, { ...fsp, open });
      if (thrown) await expect(run, code).rejects.toThrow(`failed: ${code}`);
      else await expect(run, code).resolves.toBeUndefined();
      expect(closed, code).toBe(1);
    }
  });

  it("settleStaged gives every result in order, or discards every staged file and throws the first failure", async () => {
    const a = join(dir, "a");
    await writeFile(a, "old");
    expect(await settleStaged([Promise.resolve(1), Promise.resolve("x")] as const)).toEqual([1, "x"]);
    const first = failing("EIO");
    const staged = stageFile(a, "new");
    const run = settleStaged([
      staged,
      Promise.resolve(null),
      Promise.reject(first),
      Promise.reject(failing("ENOSPC")),
    ] as const);
    await expect(run).rejects.toBe(first);
    expect(await readdir(dir)).toEqual(["a"]);
    // A result that is an object but no staged write is left alone.
    await expect(settleStaged([Promise.resolve({}), Promise.reject(first)] as const)).rejects.toBe(first);
    expect(await readFile(a, "utf8")).toBe("old");
  });

  it("removes leftovers by age (exactly the minimum age is old enough), files only, and none of a missing folder", async () => {
    const now = Math.floor(Date.now() / 1000) * 1000; // whole seconds: the file times hold them exactly
    const at = async (name: string, ageMs: number) => {
      await writeFile(join(dir, name), "x");
      await utimes(join(dir, name), new Date(now - ageMs), new Date(now - ageMs));
    };
    await at(".a.tmp-0123456789ab", 1000);
    await at(".b.tmp-0123456789ab", 999);
    await at("c.tmp-0123456789ab", 5000);
    await mkdir(join(dir, ".d.tmp-0123456789ab"));
    expect(await removeLeftoverTemps(dir, { minAgeMs: 1000, now })).toEqual([".a.tmp-0123456789ab"]);
    expect((await readdir(dir)).sort()).toEqual([".b.tmp-0123456789ab", ".d.tmp-0123456789ab", "c.tmp-0123456789ab"]);
    // No minimum age: every temporary file goes, however young.
    await at(".e.tmp-0123456789ab", -60_000);
    expect((await removeLeftoverTemps(dir, { minAgeMs: 0 })).sort()).toEqual([
      ".b.tmp-0123456789ab",
      ".e.tmp-0123456789ab",
    ]);
    expect(await removeLeftoverTemps(join(dir, "missing"))).toEqual([]);
  });
});
