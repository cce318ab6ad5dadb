import { mkdir, mkdtemp, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkSegment, ensureFolderInside, isInside, realRootOf, resolveInside } from "./safe-path";

let base: string;
let root: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "oda-safe-"));
  root = join(base, "root");
  await mkdir(root);
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe("resolveInside", () => {
  it("joins plain segments under the root", async () => {
    expect(await resolveInside(root, "memory", "global", "0000000a")).toBe(join(root, "memory/global/0000000a"));
  });

  it("refuses .., separators, NUL, empty and over-long segments", async () => {
    for (const s of ["..", ".", "", "a/b", "a\\b", "a\0b", "x".repeat(256)]) {
      expect(() => checkSegment(s)).toThrow();
      await expect(resolveInside(root, s)).rejects.toMatchObject({ code: "invalid_name" });
    }
  });

  it("refuses a path that leaves the root through a symlink, also one not yet created", async () => {
    await mkdir(join(base, "outside"));
    await symlink(join(base, "outside"), join(root, "link"));
    await expect(resolveInside(root, "link")).rejects.toMatchObject({ code: "outside_root" });
    await expect(resolveInside(root, "link", "new", "deeper")).rejects.toMatchObject({ code: "outside_root" });
    await expect(ensureFolderInside(root, "link", "made")).rejects.toMatchObject({ code: "outside_root" });
  });

  it("accepts a symlink that stays inside, and a root that is itself a symlink", async () => {
    await mkdir(join(root, "real"));
    await symlink(join(root, "real"), join(root, "alias"));
    expect(await resolveInside(root, "alias", "x")).toBe(join(root, "alias/x"));
    await symlink(root, join(base, "rootlink"));
    expect(await resolveInside(join(base, "rootlink"), "a")).toBe(join(base, "rootlink/a"));
  });

  it("isInside compares whole segments", () => {
    expect(isInside("/a/b", "/a/b/c")).toBe(true);
    expect(isInside("/a/b", "/a/bc")).toBe(false);
    expect(isInside("/a/b", "/a")).toBe(false);
  });
});

// Written from the survivors of `npm run mutate` (docs/mutation.md): each fails with the mutant it names.
describe("safe-path, the edges", () => {
  it("isInside: the root itself is inside; a sibling is not", () => {
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/b", "/a/c")).toBe(false); // rel "../c": the `..${sep}` prefix
    expect(isInside("/a/b", "/a/b/..c")).toBe(true); // a name beginning with two dots is inside
  });

  it("checkSegment takes 255 characters, refuses a non-string, and quotes at most 80 characters", () => {
    expect(() => checkSegment("x".repeat(255))).not.toThrow();
    expect(() => checkSegment(42 as unknown as string)).toThrow(expect.objectContaining({ code: "invalid_name" }));
    expect(() => checkSegment("x".repeat(256))).toThrow(`Not a valid name: "${"x".repeat(80)}".`);
    expect(() => checkSegment("a/b")).toThrow('Not a valid name: "a/b".');
  });

  it("says why a path outside the root is refused", async () => {
    await mkdir(join(base, "outside"));
    await symlink(join(base, "outside"), join(root, "link"));
    await expect(resolveInside(root, "link", "x")).rejects.toThrow(/^That path is outside the Oda home\.$/);
  });

  it("realRootOf: a root not made yet is its existing part's real path, then the rest in order", async () => {
    await mkdir(join(base, "real"));
    await symlink(join(base, "real"), join(base, "alias"));
    const real = await realpath(base);
    expect(await realRootOf(join(base, "alias", "one", "two"))).toBe(join(real, "real", "one", "two"));
    expect(await resolveInside(join(base, "alias", "one", "two"), "three")).toBe(join(base, "alias/one/two/three"));
  });

  it("a regular file on the way (ENOTDIR) is a path not made yet; a symlink loop (ELOOP) is thrown", async () => {
    await writeFile(join(root, "file"), "x");
    expect(await resolveInside(root, "file", "x")).toBe(join(root, "file", "x"));
    await symlink(join(root, "loop"), join(root, "loop"));
    await expect(resolveInside(root, "loop", "x")).rejects.toMatchObject({ code: "ELOOP" });
  });

  it("ensureFolderInside makes the folders, also a second time", async () => {
    expect(await ensureFolderInside(root, "a", "b")).toBe(join(root, "a", "b"));
    expect((await stat(join(root, "a", "b"))).isDirectory()).toBe(true);
    expect(await ensureFolderInside(root, "a", "b")).toBe(join(root, "a", "b"));
  });
});
