import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { OdaError } from "../errors";
import { type Manifest, ZManifest } from "./manifest";
import { readBundle } from "./read";

/**
 * Opening a bundle: checked and unpacked into `<admin state>/bundles/<name>/`
 * (`docs/file-contract.md`, What Oda Admin itself writes). The checked files go
 * in `bundle/` (its `home/` and `logs/` are the roots served read-only), the
 * dashboard's own index for it in `state/`. A bundle that fails a check
 * leaves nothing behind.
 */

/** An unpacked bundle. */
export interface OpenedBundle {
  /** `<state>/bundles/<name>`. */
  dir: string;
  home: string;
  logs: string;
  state: string;
  manifest: Manifest;
  /** The bundle file's name, as the banner shows it. */
  name: string;
}

/** The roots of an unpacked bundle folder. */
export function bundleRoots(dir: string): Omit<OpenedBundle, "manifest" | "name"> {
  return { dir, home: join(dir, "bundle", "home"), logs: join(dir, "bundle", "logs"), state: join(dir, "state") };
}

/** Checks `file` and unpacks it below `<stateDir>/bundles/`; the same bundle opened again replaces its folder. */
export async function unpackBundle(
  file: string,
  stateDir: string,
  options: { maxRatio?: number } = {},
): Promise<OpenedBundle> {
  const bundles = join(stateDir, "bundles");
  mkdirSync(bundles, { recursive: true });
  const partial = join(bundles, `.partial-${process.pid}-${Date.now()}`);
  mkdirSync(partial);
  let manifest: Manifest;
  try {
    manifest = await readBundle(file, join(partial, "bundle"), { maxRatio: options.maxRatio, freeIn: stateDir });
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  const name = basename(file);
  const stem = name.replace(/\.tar\.(gz|zst)$|\.tgz$/, "").replace(/[^A-Za-z0-9._-]/g, "_") || "bundle";
  const dir = join(bundles, `${stem}-${manifest.createdAt.replace(/[^0-9]/g, "").slice(0, 17)}`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  const roots = bundleRoots(dir);
  for (const root of [roots.home, roots.logs, roots.state]) mkdirSync(root, { recursive: true });
  return { ...roots, manifest, name };
}

/** Reads an unpacked bundle's manifest again (the server, for its banner). */
export function readOpenedBundle(dir: string): Manifest {
  const path = join(dir, "bundle", "manifest.json");
  if (!existsSync(path)) throw new OdaError("not_found", `No unpacked bundle is in ${dir}.`);
  return ZManifest.parse(JSON.parse(readFileSync(path, "utf8")));
}
