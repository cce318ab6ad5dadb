import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  writeTestBundle as bundle,
  testManifest as manifestOf,
  TEST_BUNDLE_FILES,
} from "../../test-support/bundle/test-bundle";
import { tempFolder } from "../../test-support/test-temp";
import { OdaError } from "../errors";
import { bundleRoots, openBundle, readBundleReport, readOpenedBundle, unpackBundle } from "./unpack";

// Where a bundle is unpacked, how it is opened again, and the refusals' sentences (docs/file-contract.md,
// What Oda Admin itself writes), exactly.

async function refusal(run: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await run;
  } catch (error) {
    return { code: (error as OdaError).code, message: (error as Error).message };
  }
  throw new Error("not refused");
}

describe("unpackBundle's folder", () => {
  it("is named after the file without its archive suffix, odd characters made _, and the creation time's digits", async () => {
    const dir = tempFolder("oda-unpack-");
    const state = join(dir, "state");
    const named = async (name: string, createdAt?: string) =>
      basename((await unpackBundle(await bundle(dir, name, createdAt), state)).dir);
    expect(await named("support bundle (1).tar.gz")).toBe("support_bundle__1_-20261201100000000");
    expect(await named("b.tgz")).toBe("b-20261201100000000");
    expect(await named("b.tar.zst")).toBe("b-20261201100000000");
    expect(await named("a.tar.gzip.tar.gz")).toBe("a.tar.gzip-20261201100000000");
    expect(await named("a.tgz.tar.gz")).toBe("a.tgz-20261201100000000");
    expect(await named(".tar.gz")).toBe("bundle-20261201100000000");
    expect(await named("c.tar.gz", "2026-12-01T10:00:00.123456Z")).toBe("c-20261201100000123");
    expect(readdirSync(join(state, "bundles")).sort()).toEqual(
      [
        "support_bundle__1_-20261201100000000",
        "b-20261201100000000",
        "a.tar.gzip-20261201100000000",
        "a.tgz-20261201100000000",
        "bundle-20261201100000000",
        "c-20261201100000123",
      ].sort(),
    );
  });

  it("has its roots at fixed places", () => {
    expect(bundleRoots("/s/bundles/b-1")).toEqual({
      dir: "/s/bundles/b-1",
      home: "/s/bundles/b-1/bundle/home",
      logs: "/s/bundles/b-1/bundle/logs",
      state: "/s/bundles/b-1/state",
    });
  });

  it("replaces a folder of that name that is no whole copy: no manifest, or no admin state", async () => {
    const dir = tempFolder("oda-unpack-");
    const state = join(dir, "state");
    const file = await bundle(dir, "b.tar.gz");
    const first = await unpackBundle(file, state);
    // An admin state but no manifest.
    writeFileSync(join(first.dir, "marker"), "");
    rmSync(join(first.dir, "bundle", "manifest.json"));
    const again = await unpackBundle(file, state);
    expect(existsSync(join(again.dir, "bundle", "manifest.json"))).toBe(true);
    expect(existsSync(join(again.dir, "marker"))).toBe(false);
    // The same manifest but no admin state: unpacked again, with one.
    rmSync(join(again.dir, "state"), { recursive: true });
    const third = await unpackBundle(file, state);
    expect(existsSync(third.state)).toBe(true);
    expect(readdirSync(join(state, "bundles"))).toEqual(["b-20261201100000000"]);
  });
});

describe("openBundle", () => {
  it("refuses a path that does not exist, and passes on any other answer of the system", async () => {
    const dir = tempFolder("oda-unpack-");
    expect(await refusal(openBundle(join(dir, "nothing.tar.gz"), join(dir, "state")))).toEqual({
      code: "not_found",
      message: `No file ${join(dir, "nothing.tar.gz")} exists.`,
    });
    writeFileSync(join(dir, "file"), "");
    const under = await refusal(openBundle(join(dir, "file", "b.tar.gz"), join(dir, "state")));
    expect(under.message).toContain("ENOTDIR");
  });

  it("refuses a folder that is not an unpacked bundle", async () => {
    const dir = tempFolder("oda-unpack-");
    mkdirSync(join(dir, "folder"));
    expect(await refusal(openBundle(join(dir, "folder"), join(dir, "state")))).toEqual({
      code: "not_found",
      message: `${join(dir, "folder")} is a folder but not an unpacked bundle (it has no bundle/manifest.json): give the bundle's file, or its folder under <state>/bundles/.`,
    });
    mkdirSync(join(dir, "folder", "bundle")); // a bundle folder, but no manifest in it
    expect((await refusal(openBundle(join(dir, "folder"), join(dir, "state")))).message).toContain(
      "is a folder but not an unpacked bundle",
    );
  });

  it("unpacks a file once, then reads it where it was unpacked; reads an unpacked folder as it is", async () => {
    const dir = tempFolder("oda-unpack-");
    const state = join(dir, "state");
    const file = await bundle(dir, "b.tar.gz");
    let unpacks = 0;
    const onUnpack = () => void unpacks++;
    const first = await openBundle(file, state, { onUnpack });
    const expected = { ...bundleRoots(join(state, "bundles", "b-20261201100000000")), name: "b.tar.gz" };
    expect(first).toEqual({ ...expected, manifest: manifestOf("2026-12-01T10:00:00.000Z"), unpacked: true });
    expect(unpacks).toBe(1);
    expect(await openBundle(file, state, { onUnpack })).toEqual({ ...first, unpacked: false });
    expect(unpacks).toBe(1);
    expect(await openBundle(first.dir, join(dir, "elsewhere"))).toEqual({
      ...first,
      name: "b-20261201100000000",
      unpacked: false,
    });
    expect(existsSync(join(dir, "elsewhere"))).toBe(false);
  });

  it("passes the ratio allowed on to the unpack", async () => {
    const dir = tempFolder("oda-unpack-");
    const zeros = [...TEST_BUNDLE_FILES, { path: "logs/zeros", data: "\0".repeat(4 * 1024 * 1024) }];
    const file = await bundle(dir, "z.tar.gz", undefined, zeros);
    expect((await refusal(openBundle(file, join(dir, "state")))).message).toContain("at most 100 times its size");
    const opened = await openBundle(file, join(dir, "state"), { maxRatio: 100_000 });
    expect(readFileSync(join(opened.logs, "zeros")).length).toBe(4 * 1024 * 1024);
  });

  it("unpacks again when the copy has no admin state or another manifest", async () => {
    const dir = tempFolder("oda-unpack-");
    const state = join(dir, "state");
    const file = await bundle(dir, "b.tar.gz");
    const first = await openBundle(file, state);
    rmSync(first.state, { recursive: true });
    expect((await openBundle(file, state)).unpacked).toBe(true);
    expect(existsSync(first.state)).toBe(true);
    const other = await bundle(dir, "b.tar.gz", undefined, [{ path: "home/settings.json", data: '{"a":1}\n' }]);
    const changed = await openBundle(other, state);
    expect(changed.unpacked).toBe(true);
    expect(changed.dir).toBe(first.dir);
    expect(readFileSync(join(changed.home, "settings.json"), "utf8")).toBe('{"a":1}\n');
  });
});

describe("an unpacked bundle's files", () => {
  it("its doctor report and manifest are read back; a folder without them is refused with a sentence", async () => {
    const dir = tempFolder("oda-unpack-");
    const opened = await unpackBundle(await bundle(dir, "b.tar.gz"), join(dir, "state"));
    const fds = () => readdirSync("/proc/self/fd").length;
    const before = fds();
    expect(readBundleReport(opened.dir)).toEqual({ ok: true, sections: [] });
    expect(fds()).toBe(before); // doctor.json closed
    expect(readOpenedBundle(opened.dir)).toEqual(manifestOf("2026-12-01T10:00:00.000Z"));
    const empty = join(dir, "empty");
    mkdirSync(join(empty, "bundle"), { recursive: true });
    const sentence = `No unpacked bundle is in ${empty}.`;
    expect(() => readBundleReport(empty)).toThrow(new OdaError("not_found", sentence));
    expect(() => readOpenedBundle(empty)).toThrow(new OdaError("not_found", sentence));
    expect(() => readOpenedBundle(empty)).toThrow(expect.objectContaining({ code: "not_found" }));
    // A doctor.json that is a folder: the system's refusal, not "no bundle".
    mkdirSync(join(empty, "bundle", "doctor.json"));
    expect(() => readBundleReport(empty)).toThrow(/folder/);
  });
});
