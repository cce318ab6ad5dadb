import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkSegment, ensureFolderInside, isInside, resolveInside } from "./safe-path";

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
