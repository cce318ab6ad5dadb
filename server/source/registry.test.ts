import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBundle } from "@/lib/bundle";
import { readOnlySentence } from "@/lib/bundle/messages";
import { MISSING_ROOT } from "@/lib/roots";
import { testScope } from "@/test-support/bundle/test-scope";
import { tempFolder } from "@/test-support/test-temp";
import { bundleIdOf, LIVE_ID, readStartRoots, requireSourceRoot, requireWritable } from "./context";
import { noSuchSource, SourceRegistry } from "./registry";

/** A live installation (logs uncompressed), and two bundles made of it (different names, so two sources). */
async function installation() {
  const base = tempFolder("oda-sources-");
  const home = join(base, "home");
  const logs = join(base, "logs");
  const state = join(base, "state");
  for (const dir of [home, logs, state]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, "settings.json"), JSON.stringify({ sessions: { compress: false } }));
  const scope = testScope({ memory: true });
  await createBundle({ home, logs }, scope, join(base, "from-ana.tar.gz"), { version: "test" });
  await createBundle({ home, logs }, scope, join(base, "from-bo.tar.gz"), { version: "test" });
  writeFileSync(join(base, "not-a-bundle.tar.gz"), "not an archive");
  return { base, home, logs, state, registry: new SourceRegistry({ home, logs, state, demo: false }) };
}

describe("the sources registry", () => {
  it("opens bundles side by side, each read-only at its own address, live untouched", async () => {
    const { base, home, logs, registry } = await installation();
    const ana = await registry.open(join(base, "from-ana.tar.gz"));
    const bo = await registry.open(join(base, "from-bo.tar.gz"));
    expect(registry.bundles().map((b) => b.id)).toEqual([ana.id, bo.id]);
    expect(ana.id).not.toBe(bo.id);
    expect(ana.prefix).toBe(`/b/${ana.id}`);
    expect(ana).toMatchObject({ kind: "bundle", canWrite: false, readOnly: readOnlySentence("from-ana.tar.gz") });
    expect(ana.roots.home).not.toBe(bo.roots.home);
    expect(existsSync(join(ana.roots.home ?? "", "settings.json"))).toBe(true);
    // Live keeps its own roots and its own log form (read from its settings).
    const live = registry.resolve(LIVE_ID);
    expect(live).toMatchObject({ kind: "live", canWrite: true, readOnly: null, prefix: "" });
    expect(live.roots).toMatchObject({ home, logs });
    expect(live.log).toEqual({ dir: logs, compress: false });
    expect(registry.resolve(ana.id)).toBe(ana);
  });

  it("changes nothing when an open fails: every source stays as it was", async () => {
    const { base, registry } = await installation();
    const ana = await registry.open(join(base, "from-ana.tar.gz"));
    await expect(registry.open(join(base, "not-a-bundle.tar.gz"))).rejects.toMatchObject({
      message: expect.stringContaining("The bundle cannot be read as a .tar.gz archive"),
    });
    await expect(registry.open("/etc/passwd")).rejects.toThrow();
    expect(registry.bundles()).toEqual([ana]);
    expect(registry.resolve(ana.id)).toBe(ana);
    expect(registry.resolve(LIVE_ID).canWrite).toBe(true);
  });

  it("closes one bundle and nothing else; live cannot be closed; a closed source is not found", async () => {
    const { base, registry } = await installation();
    const ana = await registry.open(join(base, "from-ana.tar.gz"));
    const bo = await registry.open(join(base, "from-bo.tar.gz"));
    registry.close(ana.id);
    expect(registry.bundles()).toEqual([bo]);
    expect(() => registry.resolve(ana.id)).toThrow(
      expect.objectContaining({ code: "not_found", message: noSuchSource(ana.id) }),
    );
    expect(() => registry.close(ana.id)).toThrow(expect.objectContaining({ code: "not_found" }));
    expect(() => registry.close(LIVE_ID)).toThrow(expect.objectContaining({ code: "refused" }));
    expect(registry.resolve(bo.id)).toBe(bo);
  });

  it("treats an id as data: a path-like or unknown id is not found", async () => {
    const { registry } = await installation();
    for (const id of ["../live", "a/b", "", "LIVE", "x".repeat(81)]) {
      expect(() => registry.resolve(id)).toThrow(expect.objectContaining({ code: "not_found" }));
    }
  });
});

describe("a source's context", () => {
  it("is frozen, and a bundle's refuses every write with the bundle's sentence", async () => {
    const { base, registry } = await installation();
    const ana = await registry.open(join(base, "from-ana.tar.gz"));
    expect(Object.isFrozen(ana)).toBe(true);
    expect(Object.isFrozen(ana.roots)).toBe(true);
    expect(() => requireWritable(ana)).toThrow(
      expect.objectContaining({ code: "refused", message: readOnlySentence("from-ana.tar.gz") }),
    );
    expect(() => requireWritable(registry.resolve(LIVE_ID))).not.toThrow();
  });

  it("refuses a missing root with one code and the one sentence each (lib/roots, the CLI's too)", () => {
    const registry = new SourceRegistry({ home: null, logs: null, state: null, demo: false });
    const live = registry.resolve(LIVE_ID);
    expect(() => requireSourceRoot(live, "home")).toThrow(
      expect.objectContaining({ code: "not_found", message: MISSING_ROOT.home }),
    );
    expect(() => requireSourceRoot(live, "logs")).toThrow(expect.objectContaining({ message: MISSING_ROOT.logs }));
    expect(() => requireSourceRoot(live, "state")).toThrow(expect.objectContaining({ message: MISSING_ROOT.state }));
  });

  it("reads the start environment once: serve --bundle gives a bundle source and a live one with no roots to write", () => {
    const dir = "/var/oda/state/bundles/from-ana-20261201";
    const start = readStartRoots({
      ODA_ADMIN_BUNDLE: dir,
      ODA_ADMIN_BUNDLE_NAME: "from-ana.tar.gz",
      ODA_HOME: `${dir}/bundle/home`,
    });
    expect(start).toEqual({
      roots: { home: null, logs: null, state: "/var/oda/state", demo: false },
      startBundle: { dir, name: "from-ana.tar.gz" },
    });
    expect(readStartRoots({ ODA_HOME: "/h", ODA_LOG_DIR: "/l" }).roots).toEqual({
      home: "/h",
      logs: "/l",
      state: "/h/.oda-admin",
      demo: false,
    });
    expect(bundleIdOf({ dir: "/s/bundles/From_Ana.x-2026" })).toBe("from-ana-x-2026");
    expect(bundleIdOf({ dir: "/s/bundles/live" })).toBe("bundle-live");
  });
});
