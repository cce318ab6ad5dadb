import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { writeTestBundle } from "../../test-support/bundle/test-bundle";
import { tempFolder } from "../../test-support/test-temp";
import { unpackBundle } from "./unpack";

// Two processes opening bundles of the same name and time at once, made in-process: `hook.rename` stands
// between unpack.ts and `renameSync` (it gets the real call), as another process acting right before it.
// A file of its own: the mock stands for `node:fs` in every module this file loads.
type Rename = (from: string, to: string) => void;
const hook = vi.hoisted(() => ({
  rename: undefined as ((real: Rename, from: string, to: string) => void) | undefined,
}));
vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs")>();
  const renameSync = (from: string, to: string) => {
    const real: Rename = (f, t) => actual.renameSync(f, t);
    const fn = hook.rename;
    return fn ? fn(real, from, to) : real(from, to);
  };
  return { ...actual, renameSync, default: { ...actual, renameSync } };
});
afterEach(() => {
  hook.rename = undefined;
});

const systemError = (code: string) => Object.assign(new Error(`${code}: refused here`), { code });

/** A bundle file, its state folder, and the folder it unpacks to, unpacked once already when `before`. */
async function setUp(before: boolean) {
  const base = tempFolder("oda-unpack-race-");
  const file = await writeTestBundle(base, "b.tar.gz");
  const state = join(base, "state");
  const dir = before ? (await unpackBundle(file, state)).dir : null;
  return { file, state, dir, bundles: join(state, "bundles") };
}

/** Runs `step` once, on the rename of `dir` (set aside to be replaced). */
function onceOnRename(dir: string, step: (real: Rename, from: string, to: string) => void) {
  hook.rename = (real, from, to) => {
    if (from !== dir) return real(from, to);
    hook.rename = undefined;
    return step(real, from, to);
  };
}

describe("placing an unpacked bundle while another process acts", () => {
  it("goes on when the folder to replace was removed just before it is set aside", async () => {
    const { file, state, dir, bundles } = await setUp(true);
    writeFileSync(join(dir as string, "state", "old"), "");
    rmSync(join(dir as string, "bundle", "manifest.json")); // no whole copy: it is replaced
    onceOnRename(dir as string, (real, from, to) => {
      rmSync(from, { recursive: true });
      real(from, to); // ENOENT
    });
    const opened = await unpackBundle(file, state);
    expect(opened.dir).toBe(dir);
    expect(existsSync(join(opened.dir, "bundle", "manifest.json"))).toBe(true);
    expect(readdirSync(bundles)).toEqual([(dir as string).slice(bundles.length + 1)]);
  });

  it("throws what the system answers when the folder to replace cannot be set aside", async () => {
    const { file, state, dir } = await setUp(true);
    rmSync(join(dir as string, "bundle", "manifest.json"));
    onceOnRename(dir as string, () => {
      throw systemError("EACCES");
    });
    await expect(unpackBundle(file, state)).rejects.toThrow("EACCES: refused here");
    expect(existsSync(dir as string)).toBe(true);
    expect(readdirSync(join(state, "bundles"))).toEqual([(dir as string).slice(join(state, "bundles").length + 1)]);
  });

  it("puts the folder set aside back when the unpacked copy cannot be renamed into place", async () => {
    const { file, state, dir, bundles } = await setUp(true);
    writeFileSync(join(dir as string, "state", "notes-kept"), "");
    rmSync(join(dir as string, "bundle", "manifest.json")); // no whole copy: it is to be replaced
    hook.rename = (real, from, to) => {
      if (!from.includes(".partial-") || from.endsWith("-replaced")) return real(from, to);
      hook.rename = undefined;
      throw systemError("EXDEV");
    };
    await expect(unpackBundle(file, state)).rejects.toThrow("EXDEV: refused here");
    expect(existsSync(join(dir as string, "state", "notes-kept"))).toBe(true);
    expect(readdirSync(bundles)).toEqual([(dir as string).slice(bundles.length + 1)]);
  });

  for (const code of ["ENOTEMPTY", "EEXIST"]) {
    it(`keeps the same bundle another process placed first (${code}), leaving nothing beside it`, async () => {
      const { file, state, bundles } = await setUp(false);
      let placed = "";
      hook.rename = (real, from, to) => {
        if (!from.includes(".partial-") || from.endsWith("-replaced")) return real(from, to);
        hook.rename = undefined;
        cpSync(from, to, { recursive: true }); // the other process's copy of the same bundle
        writeFileSync(join(to, "state", "theirs"), "");
        placed = to;
        if (code === "EEXIST") throw systemError("EEXIST");
        real(from, to);
      };
      const opened = await unpackBundle(file, state);
      expect(opened.dir).toBe(placed);
      expect(existsSync(join(opened.state, "theirs"))).toBe(true);
      expect(readdirSync(bundles)).toEqual([placed.slice(bundles.length + 1)]);
    });
  }

  it("throws when another bundle took the place first, or the rename fails otherwise, removing its partial folder", async () => {
    const { file, state, bundles } = await setUp(false);
    hook.rename = (real, from, to) => {
      if (!from.includes(".partial-")) return real(from, to);
      hook.rename = undefined;
      cpSync(from, to, { recursive: true });
      writeFileSync(
        join(to, "bundle", "manifest.json"),
        `${readFileSync(join(to, "bundle", "manifest.json"), "utf8")} `,
      );
      real(from, to); // ENOTEMPTY, and not the same bundle
    };
    await expect(unpackBundle(file, state)).rejects.toThrow(/ENOTEMPTY/);
    expect(readdirSync(bundles).filter((n) => n.startsWith(".partial-"))).toEqual([]);
    rmSync(bundles, { recursive: true });
    hook.rename = (real, from, to) => {
      if (!from.includes(".partial-")) return real(from, to);
      hook.rename = undefined;
      cpSync(from, to, { recursive: true }); // even with the same bundle there: only "taken" is kept
      throw systemError("EXDEV");
    };
    await expect(unpackBundle(file, state)).rejects.toThrow("EXDEV: refused here");
    expect(readdirSync(bundles).filter((n) => n.startsWith(".partial-"))).toEqual([]);
  });
});
